/**
 * `mcpscope mcp [--db FILE] [--dashboard URL]`: the capture as an MCP server over stdio, for a
 * coding agent to read (agent-mcp/). The file is opened read-only, so it may be the one a running
 * mcpscope is writing (the agent sees new traffic as it is committed) or a capture kept from
 * earlier. Replay needs the running mcpscope that writes the file: `--dashboard` names its
 * dashboard (the URL it printed, token included, or `--token` / MCPSCOPE_TOKEN), and the user's
 * `--allow-replay`; without both the server has no replay tool. The dashboard replays only to its
 * own upstream, after checking it records this very capture (remote-replay.ts). stdout carries only the protocol; messages go to stderr.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CaptureReader } from '../capture/capture-reader.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { defaultDbPath } from '../capture/data-dir.js';
import { createAgentServer, dashboardAddress, remoteReplay } from '../agent-mcp/index.js';
import { agentVerify } from '../compose/agent-verify.js';
import type { CliIo } from './cli-io.js';

export const MCP_USAGE = `Usage:
  mcpscope mcp [--db FILE] [--allow-replay --dashboard URL [--token T]] [--verify-target URL]

Serves a capture to a coding agent as an MCP server over stdio (tools: list_sessions,
search_exchanges, get_exchange, get_frame_body; replay_exchange with --allow-replay;
verify_capture with --verify-target). What the tools return is redacted as an export is,
and text recorded from traffic is labelled as captured data.

Options:
  --db FILE         the capture to read (default: the one mcpscope writes in your data directory)
  --allow-replay    offer replay_exchange: the agent may resend captured requests with the
                    captured session's real credentials, to that capture's own upstream only
  --dashboard URL   the running mcpscope's dashboard URL as it printed it (with ?token=), which
                    replays for --allow-replay
  --token T         the dashboard token, when the URL has none (or MCPSCOPE_TOKEN)
  --verify-target URL   the live MCP server verify_capture re-runs the captured calls against
`;

export type McpCli = { kind: 'mcp'; db: string; dashboard?: { url: string; token: string }; verifyTarget?: URL } | { kind: 'usage'; message: string } | { kind: 'help' };

export function parseMcpArgs(argv: string[], env: Record<string, string | undefined>): McpCli {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { db: { type: 'string' }, dashboard: { type: 'string' }, token: { type: 'string' }, 'verify-target': { type: 'string' }, 'allow-replay': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    return { kind: 'usage', message: (err as Error).message };
  }
  if (values.help) return { kind: 'help' };
  const db = values.db ?? defaultDbPath();
  if (db === ':memory:') return { kind: 'usage', message: 'an in-memory capture lives inside the mcpscope that holds it: connect your agent to its dashboard /mcp endpoint instead' };
  let verifyTarget: URL | undefined;
  if (values['verify-target'] !== undefined) {
    try {
      verifyTarget = new URL(values['verify-target']);
    } catch {
      return { kind: 'usage', message: `--verify-target must be the live server's MCP URL, e.g. http://localhost:3000/mcp (got "${values['verify-target']}")` };
    }
    if (verifyTarget.protocol !== 'http:' && verifyTarget.protocol !== 'https:') return { kind: 'usage', message: '--verify-target must be an http:// or https:// URL' };
  }
  const base = { kind: 'mcp' as const, db, ...(verifyTarget ? { verifyTarget } : {}) };
  if (values.dashboard === undefined) {
    if (values['allow-replay']) return { kind: 'usage', message: '--allow-replay replays through the running mcpscope that writes this capture: give its --dashboard URL too' };
    return values.token !== undefined ? { kind: 'usage', message: '--token goes with --dashboard URL' } : base;
  }
  if (!values['allow-replay']) return { kind: 'usage', message: '--dashboard is only for replay_exchange, which sends requests with the captured session\'s credentials: add --allow-replay if the agent may do that' };
  const address = dashboardAddress(values.dashboard, values.token ?? env.MCPSCOPE_TOKEN);
  return typeof address === 'string' ? { kind: 'usage', message: address } : { ...base, dashboard: address };
}

/** Serves until the client closes stdin; resolves then. Returns an exit code when it cannot start. */
export async function runMcp(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number | undefined> {
  const cli = parseMcpArgs(argv, env);
  if (cli.kind === 'help') {
    io.stderr.write(MCP_USAGE);
    return 0;
  }
  if (cli.kind === 'usage') {
    io.stderr.write(`mcpscope mcp: ${cli.message}\n\n${MCP_USAGE}`);
    return 2;
  }
  let reader: CaptureReader;
  try {
    reader = CaptureReader.openFile(cli.db);
  } catch (err) {
    io.stderr.write(`mcpscope mcp: cannot open ${cli.db}: ${(err as Error).message}\n`);
    return 1;
  }
  const server = createAgentServer({
    reader,
    query: new CaptureQuery(reader),
    ...(cli.dashboard
      ? { replay: remoteReplay(reader, cli.dashboard) }
      : { replayUnavailable: 'the user did not allow it (`mcpscope mcp --allow-replay --dashboard URL` offers it; it sends requests with the captured session\'s credentials)' }),
    ...(cli.verifyTarget ? { verify: { run: agentVerify(reader, cli.verifyTarget), target: cli.verifyTarget.href } } : {}),
  });
  const closed = new Promise<void>((resolve) => (server.server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  process.stdin.once('end', () => void server.close());
  await closed;
  reader.close();
  return undefined;
}
