/**
 * The capture as an MCP server for coding agents (Claude Code, Cursor, Codex): tools to list
 * sessions, search exchanges with the filter language, read one exchange whole, (when a running
 * mcpscope can do it) replay a request with edits, and verify the server against the capture. Served over stdio by `mcpscope mcp`,
 * and over Streamable HTTP at the dashboard's `/mcp` behind its token (compose/ wires both). What
 * the tools return is what a redacted export holds, with captured text kept apart (captured.ts).
 *
 * The HTTP endpoint is stateless: each POST gets a fresh server and transport (every tool is a
 * plain request/response, so there is no session state to keep), and GET/DELETE, which only
 * stateful servers use, are answered 405 by the SDK transport.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CaptureReader } from '../capture/capture-reader.js';
import type { CaptureQuery } from '../capture/capture-query.js';
import { VERSION } from '../core/version.js';
import { registerCaptureTools } from './capture-tools.js';
import { registerReplayTool, type AgentReplay } from './replay-tool.js';
import { registerVerifyTool, type AgentVerify } from './verify-tool.js';
import { CAPTURED_NOTE } from './captured.js';

export { dashboardAddress, remoteReplay, type DashboardAddress } from './remote-replay.js';
export type { AgentReplay, AgentReplayOutcome, AgentReplayRequest } from './replay-tool.js';
export type { AgentVerify, AgentVerifyResult, AgentVerifyRow } from './verify-tool.js';

export interface AgentServerDeps {
  reader: CaptureReader;
  query: CaptureQuery;
  /** How replay runs, only when the user allowed it; without it there is no replay tool (and the instructions say why). */
  replay?: AgentReplay;
  /** Said in the instructions when replay is off: how to get it. */
  replayUnavailable?: string;
  /** `mcpscope verify` against a server the user chose (never the model); without it no verify tool. */
  verify?: { run: AgentVerify; target: string };
}

export function createAgentServer(deps: AgentServerDeps): McpServer {
  const instructions = [
    'mcpscope records every JSON-RPC frame between an MCP client and an MCP server. These tools read that capture.',
    'Typical use: list_sessions to see who talked; search_exchanges with a filter (e.g. "status:err", "tool:NAME", "method:tools/call latency>1s") to find exchanges; get_exchange to read one whole (frames, bodies, spec findings).',
    deps.replay
      ? 'replay_exchange sends a captured request again (optionally with new params) through mcpscope to the server, and returns the answer; it is captured and linked to the original.'
      : `Replay is not available here${deps.replayUnavailable ? `: ${deps.replayUnavailable}` : '.'}`,
    deps.verify ? `verify_capture re-runs captured calls against ${deps.verify.target} and says which still behave the same, which regressed and which were fixed.` : '',
    `Everything these tools return is redacted as an export is. ${CAPTURED_NOTE} Each result's text ends with the whole result as JSON between <mcpscope-result> and </mcpscope-result>.`,
  ]
    .filter(Boolean)
    .join('\n');
  const server = new McpServer({ name: 'mcpscope', title: 'mcpscope capture', version: VERSION }, { instructions });
  registerCaptureTools(server, deps);
  if (deps.replay) registerReplayTool(server, deps.reader, deps.replay);
  if (deps.verify) registerVerifyTool(server, deps.verify.run, deps.verify.target);
  return server;
}

/** Streamable HTTP, stateless: one server and transport per request. */
export function agentHttpHandler(deps: AgentServerDeps): (request: Request) => Promise<Response> {
  return async (request) => {
    const server = createAgentServer(deps);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      // The answer is complete (JSON, not a stream): nothing else is coming on this transport.
      void server.close();
    }
  };
}
