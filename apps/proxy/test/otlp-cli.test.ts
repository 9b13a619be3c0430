// The OTLP command lines, run as a user runs them: `mcpscope --otlp URL` streams spans while it
// captures to a file; `mcpscope export --format otlp` later sends the stored capture with the same
// trace and span ids (so a backend that already has them gets no second copy under new ids);
// the standard OTEL_EXPORTER_OTLP_* variables choose the endpoint, headers and protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from './helpers.js';
import { tempDbFile } from './store-helpers.js';
import { spawnMcpscope, startMcpscopeProcess, type RunningMcpscope } from './support/mcpscope.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';

let live: OtlpReceiver;
let db: string;
let proxy: RunningMcpscope;

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | string; output: string }> {
  const p = spawnMcpscope(args, { env });
  const code = await p.exited;
  return { code, output: p.output() };
}

beforeAll(async () => {
  live = await startOtlpReceiver();
  db = tempDbFile();
  proxy = await startMcpscopeProcess(['--db', db, '--otlp', live.origin]);
  const client = await connectClient(proxy.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: -1 } }).catch(() => undefined);
  await client.close();
  // Spans are batched (5 s by default); stopping mcpscope sends what is left.
  await proxy.stop();
}, 60_000);

afterAll(async () => {
  await proxy?.kill9();
  await live?.close();
});

describe('mcpscope --otlp URL', () => {
  it('says where spans go, and sends them by the time it has stopped', () => {
    expect(proxy.output()).toMatch(/OTLP traces:\s+http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(http\/protobuf, from --otlp\)/);
    expect(live.spans.map((s) => s.name)).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/call suggest_gifts']));
    expect(live.spans.filter((s) => s.name === 'tools/call suggest_gifts')).toHaveLength(2);
  });
});

// Each case starts the CLI from source (tsx): seconds apiece on a busy machine.
describe('mcpscope export --format otlp', { timeout: 60_000 }, () => {
  it('sends the stored capture under the same ids as the live export', async () => {
    const later = await startOtlpReceiver();
    try {
      const { code, output } = await run(['export', '--db', db, '--format', 'otlp', '--otlp', later.origin]);
      expect(output).toMatch(/sent \d+ spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
      expect(code).toBe(0);
      const ids = (spans: OtlpReceiver['spans']) => spans.map((s) => `${s.traceId}/${s.spanId} ${s.name}`).sort();
      expect(ids(later.spans)).toEqual(ids(live.spans));
    } finally {
      await later.close();
    }
  });

  it('takes the endpoint, headers and JSON protocol from OTEL_EXPORTER_OTLP_*, and a filter', async () => {
    const json = await startOtlpReceiver();
    try {
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: json.origin, OTEL_EXPORTER_OTLP_HEADERS: 'x-team-key=s3cret', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'staging-mcp' };
      const { code } = await run(['export', '--db', db, '--format', 'otlp', '--filter', 'method:tools/call status:ok'], env);
      expect(code).toBe(0);
      expect(json.spans.map((s) => s.name)).toEqual(['tools/call suggest_gifts']);
      expect(json.spans[0]!.resource['service.name']).toBe('staging-mcp');
      expect(json.requests[0]).toMatchObject({ contentType: 'application/json', path: '/v1/traces', headers: expect.objectContaining({ 'x-team-key': 's3cret' }) });
      // The same span as the protobuf export: the encoding changes, not the ids.
      const live0 = live.spans.find((s) => s.spanId === json.spans[0]!.spanId);
      expect(live0?.traceId).toBe(json.spans[0]!.traceId);
    } finally {
      await json.close();
    }
  });

  it('says what is wrong with bad input', async () => {
    const [bad, none, down] = await Promise.all([
      run(['export', '--db', db, '--format', 'otlp', '--otlp', 'http://127.0.0.1:9/', '--filter', 'method:(']),
      run(['export', '--db', db, '--format', 'otlp']),
      // Port 9 (discard) is closed on loopback: the backend is absent.
      run(['export', '--db', db, '--format', 'otlp', '--otlp', 'http://127.0.0.1:9'], { OTEL_EXPORTER_OTLP_TIMEOUT: '2000' }),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/--filter: .+ \(at character \d+\)/);
    expect(none.code).toBe(2);
    expect(none.output).toContain('--format otlp needs --otlp URL');
    expect(down.code).toBe(1);
    expect(down.output).toMatch(/sent 0 spans .*; \d+ failed/);
  });
});
