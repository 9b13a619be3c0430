/**
 * The agent MCP server (agent-mcp/) as the dashboard's `/mcp` endpoint: over this mcpscope's own
 * capture, with replay done in-process by its replay service, through the same body checks as
 * `POST /api/replay` (parseReplayBody: no destinations, one message, a known mode), so a replay
 * only ever goes to the upstream this mcpscope proxies. Replay is handed in only when the user
 * started mcpscope with --allow-agent-replay.
 */
import type { CaptureReader } from '../capture/capture-reader.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { agentHttpHandler, type AgentReplay } from '../agent-mcp/index.js';
import { parseReplayBody } from '../replay/replay-body.js';
import type { ReplayService } from '../replay/replay-service.js';
import type { UpstreamRequest } from '../upstream/upstream-request.js';
import { agentVerify } from './agent-verify.js';

/** `replay`: only with --allow-agent-replay. `upstream`: the HTTP server mcpscope proxies, which verify_capture plays against (none for stdio or a file). */
export function agentEndpoint(reader: CaptureReader, replay: ReplayService | undefined, upstream?: { url: URL; request: UpstreamRequest }): (request: Request) => Promise<Response> {
  const inProcess: AgentReplay | undefined = replay
    ? async (request, signal) => {
        const body = parseReplayBody(request, ['exchangeId', 'message', 'mode']);
        return body.ok ? replay.replay(body.value, signal) : body;
      }
    : undefined;
  return agentHttpHandler({
    reader,
    query: new CaptureQuery(reader),
    ...(inProcess ? { replay: inProcess } : { replayUnavailable: 'the user did not allow it (mcpscope starts with --allow-agent-replay to offer it here; it sends requests with the captured session\'s credentials)' }),
    ...(upstream ? { verify: { run: agentVerify(reader, upstream.url, upstream.request), target: upstream.url.href } } : {}),
  });
}
