/**
 * Many concurrent MCP sessions through one mcpscope (built CLI with its embedded demo server), each
 * an official SDK client that initializes, opens its GET stream and calls a tool. Every client gets
 * its answer, and the capture holds every session and exactly the frames they exchanged.
 */
import { expect, it } from 'vitest';
import type { SessionSummary } from '@mcpscope/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { memoryOf } from './cli-process.js';
import { startMcpscopeProcess } from '../support/mcpscope.js';
import { api, eventually, exchanges, framesAfter, tempDb } from './harness.js';
import type { reliabilityReport } from './report.js';


/** Runs `SESSIONS` concurrent SDK sessions against a fresh CLI and asserts the result. */
export function sessionsLoadTest(SESSIONS: number, report: ReturnType<typeof reliabilityReport>): void {
  it(`${SESSIONS} concurrent SDK sessions each get their answer and are all recorded`, async () => {
    const row = report.row(`${SESSIONS} concurrent SDK client sessions (initialize, GET stream, tools/call) through one proxy`, 'every client gets its own correct answer; the capture has every session with 5 data frames each (initialize ×2, initialized, tools/call ×2); proxy stays up');
    const app = await startMcpscopeProcess(['--db', tempDb()], { from: 'build' });
    const clients: Client[] = [];
    try {
      const before = memoryOf(app.child.pid!);
      const answers = await Promise.allSettled(
        Array.from({ length: SESSIONS }, async (_, i) => {
          const client = new Client({ name: `load-${i}`, version: '1.0.0' });
          clients.push(client);
          await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
          const result = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 + (i % 200), recipient: `R${i}` } });
          return (result.content as { text: string }[])[0]!.text.includes(`for R${i}`);
        }),
      );
      const correct = answers.filter((a) => a.status === 'fulfilled' && a.value).length;
      const firstFailure = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult | undefined;
      const sessions = await eventually(async () => {
        const { sessions } = await api<{ sessions: SessionSummary[] }>(app, '/api/sessions');
        const calls = (await exchanges(app)).filter((e) => e.method === 'tools/call' && e.status !== 'pending').length;
        return sessions.length >= correct && calls >= correct ? sessions : undefined;
      }, 'every session to be recorded', 20_000);
      const data = (await framesAfter(app)).filter((f) => f.kind === 'data');
      const perSession = new Map<string, number>();
      for (const f of data) perSession.set(f.sessionKey, (perSession.get(f.sessionKey) ?? 0) + 1);
      const peak = memoryOf(app.child.pid!).peak;
      row.observed(`${correct}/${SESSIONS} correct answers${firstFailure ? ` (first failure: ${String(firstFailure.reason).slice(0, 120)})` : ''}; ${sessions.length} sessions, ${data.length} data frames recorded; proxy peak RSS ${(peak / 2 ** 20).toFixed(0)} MB (${(before.rss / 2 ** 20).toFixed(0)} MB at start)`);
      expect(correct).toBe(SESSIONS);
      expect(sessions).toHaveLength(SESSIONS);
      expect(data).toHaveLength(SESSIONS * 5);
      expect([...perSession.values()].every((n) => n === 5)).toBe(true);
    } finally {
      await Promise.allSettled(clients.map((c) => c.close()));
      await app.stop();
    }
  }, 60_000);
}
