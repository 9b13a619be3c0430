// "Every byte that was forwarded is recorded", also when an answer breaks half-way: the bytes
// the client did receive are a (malformed) frame beside the transport frame that says why.
import { describe, expect, it } from 'vitest';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { framesOfCall, post, rpcId, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('11-faults-partial', 'Faults: partial bodies');
const proxy = proxiedUpstream(startFaultyUpstream);

describe('a body that breaks half-way', () => {
  it('the bytes the client received before the reset are in the capture', async () => {
    const row = report.row('upstream sends 30 bytes of a JSON answer, then resets', 'the 30 bytes the client received are recorded (as a partial frame), beside the transport frame');
    const id = rpcId();
    const res = await post(proxy.app.mcpUrl, toolCall(id, 'reset-mid-body'));
    const reader = res.body!.getReader();
    let received = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += new TextDecoder().decode(value);
      }
    } catch {
      // the break is the point of the test
    }
    const { frames } = await framesOfCall(proxy.app, id, 2);
    const s2c = frames.filter((f) => f.direction === 's2c');
    row.observed(`client received ${received.length} bytes; s2c frames: ${s2c.map((f) => `${f.kind} "${f.raw.slice(0, 40)}"`).join(', ')}`);
    expect(received.length).toBeGreaterThan(0);
    expect(s2c.some((f) => f.raw.includes(received))).toBe(true);
  });
});
