// Replay is not an open relay: whatever the request
// body says, a replay only ever goes to the configured upstream. A second server on another
// loopback port stands for "another host" and must never see a request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { exchanges, eventually, post, rpcId, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('62-security-replay', 'Security: replay');
const proxy = proxiedUpstream(startFaultyUpstream);
let foreign: Server;
let foreignUrl: string;
let foreignHits = 0;

beforeAll(async () => {
  foreign = createServer((req, res) => {
    foreignHits += 1;
    req.resume();
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', r));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await new Promise((r) => foreign.close(r));
});

describe('replay cannot be pointed at another host', () => {
  it('ignores or refuses every attempt to name a URL or host; the other host never sees a request', async () => {
    const row = report.row('POST /api/replay with target / url / upstream / host / origin fields and an X-Forwarded-Host header naming another local server', 'each is refused (4xx) or replayed to the configured upstream only; the other server receives nothing');
    const id = rpcId();
    await (await post(proxy.app.mcpUrl, toolCall(id, 'echo', { text: 'original' }))).text();
    const original = await eventually(async () => (await exchanges(proxy.app)).find((e) => e.rpcId === id && e.status === 'ok'), 'the original call');
    const message = JSON.parse(toolCall(id, 'echo', { text: 'replayed' })) as unknown;
    const replay = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      fetch(`${proxy.app.dashboardUrl}/api/replay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${proxy.app.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    // First, a plain replay works and reaches the upstream: the refusals below are not vacuous.
    const plainBefore = proxy.upstream.seen.requests.get('echo') ?? 0;
    const plain = await replay({ exchangeId: original.id, message, mode: 'session' });
    await plain.text();
    expect(plain.status).toBeLessThan(300);
    expect((proxy.upstream.seen.requests.get('echo') ?? 0) - plainBefore).toBe(1);
    const upstreamBefore = proxy.upstream.seen.requests.get('echo') ?? 0;
    const attempts: Record<string, unknown>[] = [
      { target: foreignUrl },
      { url: foreignUrl },
      { upstream: foreignUrl },
      { upstreamUrl: foreignUrl },
      { host: new URL(foreignUrl).host },
      { origin: new URL(foreignUrl).origin },
      { headers: { host: new URL(foreignUrl).host } },
    ];
    const statuses: number[] = [];
    for (const extra of attempts) {
      for (const mode of ['session', 'fresh'] as const) {
        const res = await replay({ exchangeId: original.id, message, mode, ...extra }, { 'x-forwarded-host': new URL(foreignUrl).host });
        statuses.push(res.status);
        await res.text();
      }
    }
    const upstreamGot = (proxy.upstream.seen.requests.get('echo') ?? 0) - upstreamBefore;
    row.observed(`statuses ${[...new Set(statuses)].join(', ')}; requests reaching the other server: ${foreignHits}; replays reaching the upstream: ${upstreamGot}`);
    expect(foreignHits).toBe(0);
    // Every attempt either failed cleanly or went where it belongs.
    expect(statuses.every((s) => (s >= 200 && s < 300) || (s >= 400 && s < 500))).toBe(true);
    expect(upstreamGot).toBe(statuses.filter((s) => s < 300).length);
  });
});
