// Crash consistency: mcpscope is killed with SIGKILL in the middle of heavy traffic, then started
// again on the same capture file. The durability contract: a frame is committed within a few ms
// of being recorded (one tick of the capture pipeline, WAL), and the API shows only what is
// committed, so everything the API had already shown survives byte for byte, the
// file is intact, seqs stay a gap-free prefix, no frame is torn, and capture continues after the
// last surviving seq.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary, FrameView } from '@mcpscope/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpscopeProcess, type RunningMcpscope } from '../support/mcpscope.js';
import { eventually, exchanges, framesAfter, tempDb } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('40-crash-kill9', 'Crash consistency');
const CLIENTS = 20;
const CALLS_BEFORE = 10;

async function clientsFor(app: RunningMcpscope, n: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const c = new Client({ name: `crash-${i}`, version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
      return c;
    }),
  );
}

const call = (c: Client, i: number) => c.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50 + (i % 100) } });

describe('kill -9 under load', () => {
  it('keeps every committed frame intact and resumes capture after a restart', async () => {
    const row = report.row(`SIGKILL while ${CLIENTS} SDK clients call tools in a loop, then restart on the same file`, 'file passes integrity_check; every frame the API showed before the load survives byte for byte; seqs are 1..head with no gap; no torn frame; pre-kill exchanges still ok; new capture continues at head+1');
    const db = tempDb();
    let app = await startMcpscopeProcess(['--db', db], { from: 'build' });
    let clients = await clientsFor(app, CLIENTS);
    // Phase 1: settled traffic, confirmed through the API before the crash.
    await Promise.all(clients.map(async (c) => { for (let i = 0; i < CALLS_BEFORE; i++) await call(c, i); }));
    const committed = await eventually(async () => {
      const ex = await exchanges(app);
      return ex.filter((e) => e.method === 'tools/call' && e.status === 'ok').length === CLIENTS * CALLS_BEFORE ? framesAfter(app) : undefined;
    }, 'phase 1 to be captured');
    const committedExchanges = (await exchanges(app)).filter((e) => e.method === 'tools/call');

    // Phase 2: load in flight, then SIGKILL after a bounded number of answers.
    let answered = 0;
    let stop = false;
    const load = clients.map(async (c) => {
      for (let i = 0; i < 500 && !stop; i++) {
        try {
          await call(c, i);
          answered += 1;
        } catch {
          return; // the proxy is gone
        }
      }
    });
    await eventually(async () => (answered >= 200 ? true : undefined), '200 calls under load', 20_000);
    await app.kill9();
    stop = true;
    await Promise.allSettled(load);
    await Promise.allSettled(clients.map((c) => c.close()));

    // The file itself, before anything reopens it.
    const raw = new Database(db);
    const integrity = raw.pragma('integrity_check', { simple: true });
    raw.close();

    app = await startMcpscopeProcess(['--db', db], { from: 'build' });
    try {
      const after = await framesAfter(app);
      const head = after.length ? after[after.length - 1]!.seq : 0;
      const bySeq = new Map(after.map((f) => [f.seq, f] as const));
      const lost = committed.filter((f) => bySeq.get(f.seq)?.raw !== f.raw || bySeq.get(f.seq)?.size !== f.size);
      const gapFree = after.every((f, i) => f.seq === i + 1);
      const torn = after.filter((f) => f.kind === 'data' && f.direction === 'c2s' && !isJson(f.raw));
      const stillOk = new Map((await exchanges(app)).map((e) => [e.id, e] as const));
      const broken = committedExchanges.filter((e) => stillOk.get(e.id)?.status !== 'ok');

      clients = await clientsFor(app, 1);
      await call(clients[0]!, 0);
      const resumed = await eventually(async () => {
        const fresh: FrameView[] = await framesAfter(app, head);
        return fresh.length >= 5 ? fresh : undefined;
      }, 'capture to resume');
      await clients[0]!.close();
      row.observed(`integrity_check "${integrity}"; ${committed.length} frames committed before load, ${lost.length} lost or changed; ${after.length} frames after restart (${after.length - committed.length} from the load, ${answered} calls answered before the kill); seqs gap-free: ${gapFree}; torn frames: ${torn.length}; pre-kill exchanges not ok: ${broken.length}; capture resumed at seq ${resumed[0]!.seq} (head was ${head})`);
      expect(integrity).toBe('ok');
      expect(lost).toEqual([]);
      expect(after.length).toBeGreaterThan(committed.length);
      expect(gapFree).toBe(true);
      expect(torn).toEqual([]);
      expect(broken.map((e: ExchangeSummary) => e.id)).toEqual([]);
      expect(resumed[0]!.seq).toBe(head + 1);
    } finally {
      await app.stop();
    }
  }, 60_000);
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
