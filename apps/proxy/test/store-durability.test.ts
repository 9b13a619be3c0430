// The durability contract (README, "Durability"): a frame is committed to the WAL in the same turn
// of the event loop in which the tap recorded it, and a committed frame survives kill -9. Proven
// causally, not by timing: whatever the API served before the kill (it reads committed data), and
// every call a client saw complete before that read, is in the file after a restart.
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ExchangeSummary, ExchangesPage, FramesPage } from '@mcpscope/protocol';
import { startDemoServer, type DemoServer } from '../src/demo/demo-http.js';
import { connectClient } from './helpers.js';
import { tempDbFile } from './store-helpers.js';
import { startMcpscopeProcess, type McpscopeChild } from './support/mcpscope.js';

let demo: DemoServer | undefined;
const children: McpscopeChild[] = [];
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await demo?.close();
});

async function api<T>(loginUrl: string, path: string): Promise<T> {
  const url = new URL(loginUrl);
  const res = await fetch(`${url.origin}${path}`, { headers: { authorization: `Bearer ${url.searchParams.get('token')}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function allFrames(loginUrl: string): Promise<Map<number, string>> {
  const frames = new Map<number, string>();
  let after = 0;
  for (let i = 0; i < 1000; i++) {
    const page = await api<FramesPage>(loginUrl, `/api/frames?after=${after}&limit=5000`);
    for (const f of page.frames) frames.set(f.seq, f.raw);
    if (page.nextAfter === undefined) return frames;
    after = page.nextAfter;
  }
  throw new Error('frame paging did not end');
}

describe('durability', () => {
  it('keeps every committed frame and every completed exchange through kill -9 under load', async () => {
    demo = await startDemoServer();
    const db = tempDbFile();
    const first = await startMcpscopeProcess(['--db', db, '--target', demo.url]);
    children.push(first);

    const clients: Client[] = await Promise.all(Array.from({ length: 6 }, () => connectClient(first.mcpUrl)));
    const completed: string[] = [];
    let stop = false;
    const loops = clients.map(async (client, c) => {
      for (let n = 0; !stop && n < 100_000; n++) {
        const tag = `c${c}-${n}`;
        try {
          await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, recipient: tag } });
          completed.push(tag);
        } catch {
          return; // the proxy was killed under this call
        }
      }
    });
    while (completed.length < 60) await new Promise((r) => setTimeout(r, 20));

    // Everything completed before this point must survive; the API shows what is committed now.
    const completedBefore = [...completed];
    const framesBefore = await allFrames(first.dashboardLoginUrl);
    const exchangesBefore = (await api<ExchangesPage>(first.dashboardLoginUrl, '/api/exchanges?limit=200000')).exchanges;
    const headBefore = Math.max(...framesBefore.keys());
    while (completed.length < completedBefore.length + 30) await new Promise((r) => setTimeout(r, 10));
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    stop = true;
    await Promise.all(loops);
    await Promise.all(clients.map((c) => c.close().catch(() => {})));

    const second = await startMcpscopeProcess(['--db', db, '--target', demo.url]);
    children.push(second);
    const framesAfter = await allFrames(second.dashboardLoginUrl);
    const head = Math.max(...framesAfter.keys());
    expect(head).toBeGreaterThan(headBefore); // the kill came while traffic was flowing
    // No holes, and every frame the API served before the kill is there byte for byte.
    expect([...framesAfter.keys()]).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    for (const [seq, raw] of framesBefore) expect(framesAfter.get(seq)).toBe(raw);

    // Every call a client saw complete before the snapshot is an intact `ok` exchange.
    const exchangesAfter = (await api<ExchangesPage>(second.dashboardLoginUrl, '/api/exchanges?limit=200000')).exchanges;
    const byTag = new Map<string, ExchangeSummary>();
    for (const ex of exchangesAfter) {
      if (ex.method !== 'tools/call' || ex.requestSeq === undefined) continue;
      const tag = (JSON.parse(framesAfter.get(ex.requestSeq)!) as { params: { arguments: { recipient: string } } }).params.arguments.recipient;
      byTag.set(tag, ex);
    }
    for (const tag of completedBefore) {
      const ex = byTag.get(tag);
      expect(ex, tag).toMatchObject({ status: 'ok', frameSeqs: [ex!.requestSeq, ex!.responseSeq] });
      expect(framesAfter.has(ex!.responseSeq!)).toBe(true);
    }
    // Finished exchanges read before the kill are unchanged after it.
    const after = new Map(exchangesAfter.map((e) => [e.id, e]));
    for (const ex of exchangesBefore) if (ex.status !== 'pending') expect(after.get(ex.id)).toEqual(ex);

    // The restarted proxy captures on from where the file ends.
    const client = await connectClient(second.mcpUrl);
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } });
    await client.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((check.prepare('SELECT MAX(seq) AS s FROM frames').get() as { s: number }).s).toBeGreaterThan(head);
    check.close();
  }, 90_000);
});
