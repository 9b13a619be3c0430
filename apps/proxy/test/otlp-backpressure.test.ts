// A tracing backend that is down, overloaded (503) or hanging never holds up the tap: every call
// through it is answered, the exporter's queue stays within its bound, and every exchange's span
// is accounted for as exported, dropped or failed, both in-process and at GET /api/otlp.
// (How much the tap's throughput moves meanwhile is measured in bench/otlp-backend.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import type { OtlpStatus } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { resolveOtlpConfig } from '../src/otlp/otlp-config.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './support/api.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceiverMode } from './support/otlp-receiver.js';

const QUEUE = 8;
const CALLS = 60;

let app: Mcpscope | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await app?.close();
  await receiver?.close();
  app = receiver = undefined;
});

async function backendThat(behaves: ReceiverMode | 'absent'): Promise<string> {
  receiver = await startOtlpReceiver(behaves === 'absent' ? 'ok' : behaves);
  const url = receiver.url;
  if (behaves === 'absent') {
    await receiver.close();
    receiver = undefined;
  }
  return url;
}

async function statusOnceSettled(mcpscope: Mcpscope): Promise<OtlpStatus> {
  for (;;) {
    const status = mcpscope.otlp!.status();
    if (status.waiting === 0) return status;
    expect(status.waiting).toBeLessThanOrEqual(QUEUE);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(['503', 'hang', 'absent'] as const)('a backend that is %s', (behaves) => {
  it('never holds up the tap, and accounts for every span', async () => {
    const url = await backendThat(behaves);
    const otlp = resolveOtlpConfig({ otlp: url }, { OTEL_BSP_MAX_QUEUE_SIZE: String(QUEUE), OTEL_BSP_EXPORT_TIMEOUT: '300', OTEL_BSP_SCHEDULE_DELAY: '5' });
    if (!otlp.ok || !otlp.config) throw new Error('config');
    app = await startTestMcpscope({ otlp: otlp.config });
    const client = await connectClient(app.mcpUrl);
    const answers = await Promise.all(Array.from({ length: CALLS }, (_, i) => client.callTool({ name: 'suggest_gifts', arguments: { occasion: `party ${i}`, budget: 30 } })));
    expect(answers.every((a) => a.isError !== true && Array.isArray(a.content))).toBe(true);
    await client.close();
    await settled(app);

    const exchanges = app.store.exchanges(1000).length;
    expect(exchanges).toBeGreaterThanOrEqual(CALLS);
    const status = await statusOnceSettled(app);
    expect(status.exported).toBe(0);
    // A backend that is slow to fail (503 with retries, or silent) fills the queue: the spans that
    // did not fit were dropped, not queued. One that refuses connections fails each batch at once.
    if (behaves !== 'absent') expect(status.dropped).toBeGreaterThan(0);
    expect(status.failed).toBeGreaterThan(0);
    expect(status.dropped! + status.failed!).toBe(exchanges);
    expect(status.lastError?.message).toBeTruthy();

    const { body } = await api<OtlpStatus>(app, '/api/otlp');
    expect(body).toMatchObject({ enabled: true, endpoint: url, exported: 0, dropped: status.dropped, failed: status.failed, maxQueueSize: QUEUE });
  });
});

describe('a backend that recovers', () => {
  it('gets the spans that come after it is back', async () => {
    receiver = await startOtlpReceiver('503');
    const otlp = resolveOtlpConfig({ otlp: receiver.origin }, { OTEL_BSP_EXPORT_TIMEOUT: '300', OTEL_BSP_SCHEDULE_DELAY: '5' });
    if (!otlp.ok || !otlp.config) throw new Error('config');
    app = await startTestMcpscope({ otlp: otlp.config });
    const client = await connectClient(app.mcpUrl);
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'lost', budget: 30 } });
    await settled(app);
    const before = await statusOnceSettled(app);
    expect(before.failed).toBeGreaterThan(0);
    receiver.mode = 'ok';
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'found', budget: 30 } });
    const [span] = await receiver.waitFor(1, (s) => s.name === 'tools/call suggest_gifts');
    expect(span!.attributes['mcpscope.status']).toBe('ok');
    await client.close();
    const after = await statusOnceSettled(app);
    expect(after.exported).toBeGreaterThan(0);
    // What was counted failed stayed failed: the exporter gave up on it before the guard did.
    expect(receiver.spans.length).toBe(after.exported);
  });
});

describe('--otlp-bodies without a destination, and a gRPC protocol', () => {
  it('are usage errors that say what to do', () => {
    expect(resolveOtlpConfig({ otlpBodies: true }, {})).toEqual({ ok: false, message: expect.stringContaining('--otlp-bodies needs --otlp URL') });
    expect(resolveOtlpConfig({ otlp: 'http://h:4318' }, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({ ok: false, message: expect.stringContaining('4318') });
    expect(resolveOtlpConfig({ otlp: 'ftp://h' }, {})).toEqual({ ok: false, message: expect.stringContaining('--otlp must be an http://') });
  });
});
