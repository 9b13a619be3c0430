// A legitimate call that takes a long time must not be timed out by mcpscope: no 5–10 s timer
// anywhere on the path (undici's 300 s defaults are disabled in the tap). 20 s proves it, and other
// calls keep flowing through the same proxy meanwhile.
import { describe, expect, it } from 'vitest';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { framesOfCall, post, rpcId, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('15-faults-stall', 'Long calls');
const STALL_MS = 20_000;
const proxy = proxiedUpstream(startFaultyUpstream);

describe('an upstream that takes its time', () => {
  it('a 20 s tools/call is answered, not timed out, and other calls pass meanwhile', async () => {
    const row = report.row(`upstream takes ${STALL_MS / 1000} s to answer a tools/call`, 'the client gets the answer after 20 s (no proxy timeout); other calls through the same proxy are answered meanwhile; exchange ok');
    const id = rpcId();
    const slow = post(proxy.app.mcpUrl, toolCall(id, 'stall', { ms: STALL_MS }));
    let others = 0;
    let settled = false;
    void slow.finally(() => (settled = true));
    // Bounded: a few calls while the slow one is still open.
    for (let i = 0; i < 5 && !settled; i++) {
      const res = await post(proxy.app.mcpUrl, toolCall(rpcId(), 'echo'));
      if (res.status === 200) others += 1;
      await res.text();
      await new Promise((r) => setTimeout(r, 500));
    }
    const res = await slow;
    const body = (await res.json()) as { id?: number; result?: { content?: { text?: string }[] } };
    const { exchange } = await framesOfCall(proxy.app, id, 2);
    row.observed(`${res.status} "${body.result?.content?.[0]?.text}" after ${STALL_MS / 1000} s; ${others} other calls answered meanwhile; exchange ${exchange.status}`);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ id, result: { content: [{ text: 'finally' }] } });
    expect(others).toBe(5);
    expect(exchange.status).toBe('ok');
  }, STALL_MS + 20_000);
});
