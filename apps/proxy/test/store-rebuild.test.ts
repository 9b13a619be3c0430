// The capture file is the user's evidence: derived tables are a cache of the frames. Capture that
// continues across a restart must derive what uninterrupted capture would have, and
// `mcpscope rebuild` must give back exactly the tables live capture wrote.
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startDemoServer, type DemoServer } from '../src/demo/demo-http.js';
import { InspectorError } from '../src/core/errors.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { snapshotDerived, tempDbFile } from './store-helpers.js';
import { spawnMcpscope } from './support/mcpscope.js';

let demo: DemoServer;
const running: Mcpscope[] = [];
afterAll(async () => {
  for (const app of running) await app.close();
  await demo?.close();
});

async function start(db: string, port = 0): Promise<Mcpscope> {
  const app = await startTestMcpscope({ db, port, target: demo.url });
  running.push(app);
  return app;
}

async function stop(app: Mcpscope): Promise<void> {
  running.splice(running.indexOf(app), 1);
  await app.close();
}

describe('capture across a restart, and rebuild from frames', () => {
  it('continues a session after a restart as if capture had never stopped, and rebuild reproduces every derived row', async () => {
    demo = await startDemoServer();
    const db = tempDbFile();
    const first = await start(db);
    const tapPort = Number(new URL(first.tapUrl).port);
    const client = await connectClient(first.mcpUrl);
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } });
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 5 } });
    await expect(client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'cheap' } })).rejects.toMatchObject({ code: -32602 });
    await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 } });
    // Junk is data: an invalid frame with a diagnostic.
    await fetch(first.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", oops' });
    await settled(first);
    await stop(first);

    // Same file, same tap port: the SDK client carries on in its session, unaware of the restart.
    const second = await start(db, tapPort);
    expect(second.tapUrl).toContain(`:${tapPort}`);
    const call = () => client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'anniversary', budget: 100 } });
    // The first try may go out on a keep-alive socket the old process closed; a client retries.
    await call().catch(call);
    await client.close();
    await settled(second);
    const [session] = second.store.sessions().filter((s) => s.clientInfo);
    // Without replaying the stored frames on open, this session would lose what initialize said.
    expect(session).toMatchObject({ clientInfo: { name: 'mcpscope-test' }, serverInfo: { name: 'gift-ideas' }, protocolVersion: '2025-11-25' });
    expect(session!.counts).toMatchObject({ ok: expect.any(Number), business_error: 1, protocol_error: 1 });
    expect(second.store.exchanges(100).filter((e) => e.method === 'tools/call')).toHaveLength(5);
    await stop(second);

    const live = snapshotDerived(db);
    expect(live.diagnostics!.length).toBeGreaterThan(0);
    const rebuild = spawnMcpscope(['rebuild', '--db', db]);
    expect(await rebuild.exited).toBe(0);
    expect(rebuild.output()).toMatch(/rebuilt .* from \d+ frames .*: \d+ exchanges, \d+ sessions, [1-9]\d* diagnostics/);
    expect(snapshotDerived(db)).toEqual(live);
  });

  it('refuses a second mcpscope on the same file with a clear error, in-process and from the command line', async () => {
    demo ??= await startDemoServer();
    const db = tempDbFile();
    const app = await start(db);
    await expect(startTestMcpscope({ db, target: demo.url })).rejects.toSatisfy(
      (err: unknown) => err instanceof InspectorError && err.code === 'db_locked' && err.message.includes(db),
    );
    const cli = spawnMcpscope(['--db', db, '--port', '0', '--ui-port', '0', '--no-open', '--target', demo.url]);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain(`mcpscope: ${db} is in use by another mcpscope`);
    const rebuild = spawnMcpscope(['rebuild', '--db', db]);
    expect(await rebuild.exited).toBe(1);
    expect(rebuild.output()).toContain('is in use by another mcpscope');
    // Readers are welcome (an export reads the live file); only writers are refused.
    const reader = new Database(db, { readonly: true });
    expect((reader.prepare('SELECT COUNT(*) AS n FROM frames').get() as { n: number }).n).toBeGreaterThanOrEqual(0);
    reader.close();
    // The first one is unharmed and still captures.
    const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(res.status).toBeGreaterThanOrEqual(200);
    await settled(app);
    expect(app.store.head()).toBeGreaterThan(0);
  });
});
