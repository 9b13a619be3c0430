// Live OTLP export (`--otlp`): a real SDK client session against server-everything through the
// tap; the real OpenTelemetry SDK exports; a loopback receiver decodes with the official OTLP
// protobuf definitions. Checks what a tracing backend would show: span names and kinds, the MCP
// semantic-convention attributes, one trace per session, progress as events, a replay linked to
// its original, and bodies only redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OtlpStatus, ReplayResponse, SessionsPage } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { resolveOtlpConfig } from '../src/otlp/otlp-config.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api, apiGet } from './support/api.js';
import { startEverything, type Everything } from './support/everything.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';

const SERVER = 2;
const ERROR = 2;

let everything: Everything;
let receiver: OtlpReceiver;
let app: Mcpscope;
let first: Client;
let second: Client;
let firstSessionId: string;

beforeAll(async () => {
  [everything, receiver] = await Promise.all([startEverything('streamableHttp'), startOtlpReceiver()]);
  const otlp = resolveOtlpConfig({ otlp: receiver.origin, otlpBodies: true }, { OTEL_BSP_SCHEDULE_DELAY: '10' });
  if (!otlp.ok || !otlp.config) throw new Error('config');
  app = await startTestMcpscope({ target: everything.url, otlp: otlp.config });
  first = new Client({ name: 'otlp-test', version: '1.2.3' });
  const transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl));
  await first.connect(transport);
  firstSessionId = transport.sessionId!;
  await first.listTools();
  await first.callTool({ name: 'echo', arguments: { message: 'hello Bearer abcdefghijklmnopqrstuvwxyz0123' } });
  await first.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } });
  await first.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: () => {} });
  await first.getPrompt({ name: 'no-such-prompt' }).catch(() => undefined);
  second = new Client({ name: 'otlp-test-2', version: '1.0.0' });
  await second.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
  await second.callTool({ name: 'echo', arguments: { message: 'second' } });
  await settled(app);
}, 60_000);

afterAll(async () => {
  await first?.close();
  await second?.close();
  await app?.close();
  await Promise.all([everything?.close(), receiver?.close()]);
});

const one = async (name: string, where: (s: ReceivedSpan) => boolean = () => true) => (await receiver.waitFor(1, (s) => s.name === name && where(s)))[0]!;
const inFirst = (s: ReceivedSpan) => s.attributes['mcp.session.id'] === firstSessionId;

describe('live OTLP export', () => {
  it('sends one SERVER span per exchange, named and attributed by the MCP conventions', async () => {
    const init = await one('initialize', inFirst);
    expect(init.kind).toBe(SERVER);
    expect(init.attributes).toMatchObject({
      'mcp.method.name': 'initialize',
      'jsonrpc.request.id': '0',
      'mcp.protocol.version': '2025-11-25',
      'mcp.session.id': firstSessionId,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'mcpscope.status': 'ok',
      'mcpscope.client.name': 'otlp-test',
    });
    expect(init.resource).toMatchObject({ 'service.name': 'mcpscope' });
    expect(init.scope).toBe('mcpscope');

    const echo = await one('tools/call echo', inFirst);
    expect(echo.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', 'mcpscope.status': 'ok' });
    expect(echo.status.code).toBe(0);
    expect(Number(echo.endNs - echo.startNs)).toBeGreaterThan(0);
    const list = await one('tools/list', inFirst);
    expect(list.attributes['gen_ai.tool.name']).toBeUndefined();
    const initialized = await one('notifications/initialized', inFirst);
    expect(initialized.attributes['jsonrpc.request.id']).toBeUndefined();
    expect(initialized.events).toEqual([]);
    expect(initialized.kind).toBe(SERVER);
  });

  it('marks failures: isError is tool_error; a caller-fault JSON-RPC code is recorded but is not a server failure', async () => {
    const sum = await one('tools/call get-sum', inFirst);
    expect(sum.attributes).toMatchObject({ 'error.type': 'tool_error', 'mcpscope.status': 'business_error' });
    // b: 'two' breaks get-sum's inputSchema: the client's fault, whatever the server answered.
    expect(sum.attributes).toMatchObject({ 'mcpscope.verdict': 'client-malformed-request', 'mcpscope.fault': 'client' });
    const echo = await one('tools/call echo', inFirst);
    expect(echo.attributes['mcpscope.verdict']).toBeUndefined();
    expect(sum.status).toMatchObject({ code: ERROR });
    const prompt = await one('prompts/get no-such-prompt', inFirst);
    expect(prompt.attributes).toMatchObject({ 'mcpscope.status': 'protocol_error', 'rpc.response.status_code': expect.stringMatching(/^-32/), 'gen_ai.prompt.name': 'no-such-prompt' });
    const code = Number(prompt.attributes['rpc.response.status_code']);
    if ([-32700, -32600, -32601, -32602, -32002].includes(code)) {
      expect(prompt.attributes['error.type']).toBeUndefined();
      expect(prompt.status.code).toBe(0);
    } else {
      expect(prompt.attributes['error.type']).toBe(String(code));
      expect(prompt.status.code).toBe(ERROR);
    }
  });

  it('puts every span of a session in one trace, and another session in another', async () => {
    const spans = await receiver.waitFor(7, inFirst);
    expect(spans.map((s) => s.name).sort()).toEqual(['initialize', 'notifications/initialized', 'prompts/get no-such-prompt', 'tools/call echo', 'tools/call get-sum', 'tools/call trigger-long-running-operation', 'tools/list']);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const other = await one('tools/call echo', (s) => s.attributes['mcpscope.client.name'] === 'otlp-test-2');
    expect(other.traceId).not.toBe(spans[0]!.traceId);
    expect(new Set(receiver.spans.map((s) => s.spanId)).size).toBe(receiver.spans.length);
  });

  it('names the conversation each span belongs to, as the dashboard groups it', async () => {
    const echo = await one('tools/call echo', inFirst);
    const sessionKey = String(echo.attributes['mcpscope.session.key']);
    const { sessions } = await apiGet<SessionsPage>(app, '/api/sessions');
    const conversationKey = sessions.find((s) => s.sessionKey === sessionKey)?.conversationKey;
    expect(conversationKey).toBeTruthy();
    expect(echo.attributes['mcpscope.conversation.key']).toBe(conversationKey);
  });

  it('records progress notifications as events on the span of their request', async () => {
    const op = await one('tools/call trigger-long-running-operation');
    const progress = op.events.filter((e) => e.name === 'notifications/progress');
    expect(progress.map((e) => e.attributes['mcpscope.progress'])).toEqual([1, 2, 3]);
    expect(progress[0]!.attributes['mcpscope.progress.total']).toBe(3);
    for (const e of progress) {
      expect(e.timeNs).toBeGreaterThanOrEqual(op.startNs);
      expect(e.timeNs).toBeLessThanOrEqual(op.endNs);
    }
  });

  it('exports bodies only redacted: the bearer token in the echo never leaves', async () => {
    const echo = await one('tools/call echo', inFirst);
    const args = String(echo.attributes['gen_ai.tool.call.arguments']);
    expect(args).toContain('hello');
    expect(JSON.stringify(echo.attributes)).not.toContain('abcdefghijklmnopqrstuvwxyz0123');
    expect(String(echo.attributes['gen_ai.tool.call.result'])).toContain('Echo');
    expect(String(echo.attributes['mcpscope.request.body'])).toContain('"method":"tools/call"');
  });

  it('links a replay to the span of the exchange it replays', async () => {
    const original = await one('tools/call get-sum', inFirst);
    const originalId = String(original.attributes['mcpscope.exchange.id']);
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1, b: 2 } } };
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message });
    expect(status).toBe(200);
    const replay = await one('tools/call get-sum', (s) => s.attributes['mcpscope.replay_of'] === originalId);
    expect(replay.attributes['mcpscope.exchange.id']).toBe(body.exchange.id);
    expect(replay.links).toEqual([{ traceId: original.traceId, spanId: original.spanId, attributes: { 'mcpscope.link.type': 'replay_of', 'mcpscope.exchange.id': originalId } }]);
  });

  it('reports what it sent at GET /api/otlp', async () => {
    await receiver.waitFor(10);
    const { status, body } = await api<OtlpStatus>(app, '/api/otlp');
    expect(status).toBe(200);
    expect(body).toMatchObject({ enabled: true, endpoint: receiver.url, protocol: 'http/protobuf', bodies: true, dropped: 0, failed: 0 });
    expect(body.exported).toBeGreaterThanOrEqual(10);
    expect(receiver.requests.every((r) => r.contentType === 'application/x-protobuf' && r.path === '/v1/traces')).toBe(true);
  });
});
