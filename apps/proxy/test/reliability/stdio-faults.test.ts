// Faults of a stdio server behind mcpscope's
// Streamable HTTP bridge: a 1 MB line, a server that crashes mid-call, one that writes non-JSON to
// stdout. The proxy stays up, the HTTP client gets a well-formed answer, and the capture holds
// every line the server wrote (stdio lines are frames, non-JSON included) and the child's exit.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpscopeProcess } from '../support/mcpscope.js';
import { api, eventually, framesAfter, tempDb } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('35-stdio-faults', 'Faults of a stdio server');
const SERVER = fileURLToPath(new URL('./fixtures/stdio-server.mjs', import.meta.url));
const stdioCommand = (...flags: string[]) => [process.execPath, SERVER, ...flags].map((a) => JSON.stringify(a)).join(' ');

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'stdio-faults', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const textOf = (r: object) => (((r as { content?: unknown }).content as { text?: string }[] | undefined)?.[0]?.text ?? '');

describe('stdio faults', () => {
  it('a 1 MB line from the server reaches the client whole and is recorded as one frame', async () => {
    const row = report.row('stdio server answers with a single 1 MB line', 'the HTTP client receives the whole text; one stdio frame of the full size is recorded');
    const app = await startMcpscopeProcess(['--stdio', stdioCommand(), '--db', tempDb()], { from: 'build' });
    try {
      const client = await connect(app.mcpUrl);
      const result = await client.callTool({ name: 'big-line', arguments: {} });
      await client.close();
      const big = await eventually(async () => (await framesAfter(app)).find((f) => f.transport === 'stdio' && f.direction === 's2c' && f.size > 1024 * 1024), 'the 1 MB line to be recorded');
      row.observed(`client got ${textOf(result).length} chars; recorded frame of ${big.size} chars`);
      expect(textOf(result)).toHaveLength(1024 * 1024);
      expect(big.kind).toBe('data');
    } finally {
      await app.stop();
    }
  });

  it('a server that crashes mid-call: the client gets an error answer, the exit is recorded, mcpscope stays up', async () => {
    const row = report.row('stdio server exits (code 3) while handling a tools/call', 'the pending HTTP call ends with a JSON-RPC error or HTTP error (no hang); a transport frame records the exit; the dashboard API keeps answering');
    const app = await startMcpscopeProcess(['--stdio', stdioCommand(), '--db', tempDb()], { from: 'build' });
    try {
      const client = await connect(app.mcpUrl);
      const outcome = await client.callTool({ name: 'crash', arguments: {} }).then(
        (r) => `result ${JSON.stringify(r).slice(0, 80)}`,
        (err: { code?: number; message?: string }) => `error ${err.code ?? ''} ${err.message ?? ''}`.slice(0, 120),
      );
      await client.close().catch(() => undefined);
      const exit = await eventually(async () => (await framesAfter(app)).find((f) => f.kind === 'transport' && f.transport === 'stdio'), 'the exit to be recorded');
      const health = await fetch(`${app.dashboardUrl}/api/health`);
      const sessions = await api<{ sessions: unknown[] }>(app, '/api/sessions');
      row.observed(`client: ${outcome}; transport frame: ${exit.raw.slice(0, 100)}; health ${health.status}; process alive: ${app.child.exitCode === null}`);
      expect(outcome.startsWith('error')).toBe(true);
      expect(health.status).toBe(200);
      expect(sessions.sessions.length).toBeGreaterThan(0);
      expect(app.child.exitCode).toBeNull();
    } finally {
      await app.stop();
    }
  });

  it('non-JSON on stdout: answers still flow, and every line is recorded as a frame', async () => {
    const row = report.row('stdio server prints a banner and chatter lines (not JSON) on stdout around its answers', 'the client still gets every answer; each non-JSON line is recorded as its own frame (shown as invalid), none dropped');
    const app = await startMcpscopeProcess(['--stdio', stdioCommand('--noisy'), '--db', tempDb()], { from: 'build' });
    try {
      const client = await connect(app.mcpUrl);
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(textOf(await client.callTool({ name: 'echo', arguments: { text: `n${i}` } })));
      await client.close();
      const noise = await eventually(async () => {
        const lines = (await framesAfter(app)).filter((f) => f.transport === 'stdio' && f.direction === 's2c' && f.kind === 'data' && !f.raw.startsWith('{'));
        // The banner, and one chatter line per request that has an id (initialize + 5 calls).
        return lines.length >= 7 ? lines : undefined;
      }, 'the non-JSON lines to be recorded');
      row.observed(`answers ${answers.join(',')}; ${noise.length} non-JSON lines recorded (first: "${noise[0]?.raw}")`);
      expect(answers).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
      expect(noise[0]!.raw).toBe('Server starting... (this banner is not JSON)');
      expect(noise).toHaveLength(7);
    } finally {
      await app.stop();
    }
  });
});
