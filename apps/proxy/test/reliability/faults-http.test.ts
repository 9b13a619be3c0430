// Faults on the HTTP path: whatever the upstream or the client does, the proxy stays up, the
// client gets a well-formed answer (or exactly the bytes the upstream sent), and the capture holds
// what was forwarded, frame for frame.
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { freePort } from '../support/free-port.js';
import { eventually, exchanges, framesAfter, framesOfCall, isJsonRpcError, post, rpcId, startProxy, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('10-faults-http', 'Faults on the HTTP path');
const proxy = proxiedUpstream(startFaultyUpstream);

// After every fault the same proxy still serves an ordinary call.
afterEach(async () => {
  const id = rpcId();
  const res = await post(proxy.app.mcpUrl, toolCall(id, 'echo', { text: 'still alive' }));
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ id, result: { content: [{ text: 'still alive' }] } });
});

/** The `data` of each complete SSE event in `sse` (enough of the format for these fixtures). */
const dataEvents = (sse: string) =>
  sse
    .split(/\r?\n\r?\n/)
    .slice(0, -1)
    .map((e) => e.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')))
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'));

async function readAll(res: Response): Promise<{ text: string; error?: unknown }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode() };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

describe('HTTP faults', () => {
  it('upstream down at start: 502 with a JSON-RPC error, then works once the upstream comes up', async () => {
    const row = report.row('upstream down when mcpscope starts, comes up later', '502 + JSON-RPC error with the request id, transport_error recorded; later calls succeed without restarting mcpscope');
    const port = await freePort();
    const down = await startProxy(`http://127.0.0.1:${port}/mcp`);
    try {
      const id = rpcId();
      const res = await post(down.mcpUrl, toolCall(id, 'echo'));
      const body = (await res.json()) as { error?: { message?: string } };
      const { exchange } = await framesOfCall(down, id, 2);
      const late = await startFaultyUpstream(port);
      const id2 = rpcId();
      const res2 = await post(down.mcpUrl, toolCall(id2, 'echo', { text: 'up now' }));
      const body2 = await res2.json();
      await late.close();
      row.observed(`${res.status} ${JSON.stringify(body.error)}; exchange ${exchange.status}; after the upstream came up: ${res2.status}`);
      expect(res.status).toBe(502);
      expect(isJsonRpcError(body, id)).toBe(true);
      expect(exchange.status).toBe('transport_error');
      expect(res2.status).toBe(200);
      expect(body2).toMatchObject({ id: id2, result: { content: [{ text: 'up now' }] } });
    } finally {
      await down.close();
    }
  });

  it('upstream dies mid-SSE-stream: the client gets the events sent and an ended stream; both are recorded', async () => {
    const row = report.row('upstream destroys the TCP connection after 2 SSE events', 'client receives both events and then the end of the stream (no hang); 2 event frames + a transport frame recorded; exchange transport_error');
    const id = rpcId();
    const res = await post(proxy.app.mcpUrl, toolCall(id, 'die-mid-sse'));
    const { text } = await readAll(res);
    const delivered = dataEvents(text);
    const { exchange, frames } = await framesOfCall(proxy.app, id, 4);
    const events = frames.filter((f) => f.direction === 's2c' && f.kind === 'data').map((f) => f.raw);
    const transport = frames.filter((f) => f.kind === 'transport');
    row.observed(`${res.status}, ${delivered.length} events delivered, ${events.length} event frames + ${transport.length} transport frame recorded, exchange ${exchange.status}`);
    expect(res.status).toBe(200);
    expect(delivered).toHaveLength(2);
    expect(events).toEqual(delivered);
    expect(transport).toHaveLength(1);
    expect(exchange.status).toBe('transport_error');
  });

  it('connection reset before any answer: 502 with a JSON-RPC error', async () => {
    const row = report.row('upstream resets the connection before answering', '502 + JSON-RPC error with the id, transport_error recorded');
    const id = rpcId();
    const res = await post(proxy.app.mcpUrl, toolCall(id, 'reset'));
    const body = (await res.json()) as { error?: { message?: string } };
    const { exchange } = await framesOfCall(proxy.app, id, 2);
    row.observed(`${res.status} "${body.error?.message}", exchange ${exchange.status}`);
    expect(res.status).toBe(502);
    expect(isJsonRpcError(body, id)).toBe(true);
    expect(exchange.status).toBe('transport_error');
  });

  it('connection reset mid-body: the client sees the body break, not a hang; the failure is recorded', async () => {
    const row = report.row('upstream sends headers and 30 of 1000 bytes, then resets', 'the client read ends with an error (headers were already sent), a transport frame is recorded, exchange transport_error');
    const id = rpcId();
    const res = await post(proxy.app.mcpUrl, toolCall(id, 'reset-mid-body'));
    const { error } = await readAll(res);
    const { exchange, frames } = await framesOfCall(proxy.app, id, 2);
    row.observed(`${res.status}, body ${error ? 'broke' : 'ended cleanly'}, frames ${frames.map((f) => `${f.direction}/${f.kind}`).join(', ')}, exchange ${exchange.status}`);
    expect(error).toBeDefined();
    expect(frames.some((f) => f.kind === 'transport')).toBe(true);
    expect(exchange.status).toBe('transport_error');
  });

  it.each([
    ['garbage', 'upstream answers 200 application/json with bytes that are not JSON'],
    ['wrong-content-type', 'upstream answers text/html to a JSON-RPC POST'],
  ])('%s: forwarded unchanged and recorded as it came', async (name, fault) => {
    const row = report.row(fault, 'the client receives exactly the upstream bytes and status; the body is recorded verbatim as one frame');
    const id = rpcId();
    const res = await post(proxy.app.mcpUrl, toolCall(id, name));
    const text = await res.text();
    const { frames } = await framesOfCall(proxy.app, id, 2);
    const answer = frames.find((f) => f.direction === 's2c');
    row.observed(`${res.status} ${res.headers.get('content-type')}, ${text.length} chars delivered, recorded frame ${answer?.raw === text ? 'identical' : 'DIFFERENT'}`);
    expect(res.status).toBe(200);
    expect(answer?.raw).toBe(text);
  });

  it('invalid UTF-8 in an answer: the client gets the exact bytes; the frame is recorded', async () => {
    const row = report.row('upstream answer contains bytes that are not UTF-8 (0xFF 0xFE 0xC3 0x28)', 'the client receives the exact bytes; the frame is recorded with the valid text around them intact');
    const id = rpcId();
    const direct = new Uint8Array(await (await post(proxy.upstream.url, toolCall(id, 'invalid-utf8'))).arrayBuffer());
    const res = await post(proxy.app.mcpUrl, toolCall(id, 'invalid-utf8'));
    const through = new Uint8Array(await res.arrayBuffer());
    const { frames } = await framesOfCall(proxy.app, id, 2);
    const raw = frames.find((f) => f.direction === 's2c')?.raw ?? '';
    const same = Buffer.from(direct).equals(Buffer.from(through));
    row.observed(`bytes through the tap ${same ? 'identical to' : 'DIFFER from'} direct; recorded ${raw.length} chars`);
    expect(same).toBe(true);
    expect(raw).toContain('before ');
    expect(raw).toContain(' after');
  });

  it('a client that aborts mid-stream: the upstream request is cancelled and the capture says so', async () => {
    const row = report.row('client aborts an SSE answer after 3 events (upstream would send 200)', 'the upstream sees its request closed; the events forwarded are recorded in order; a client-disconnected frame; exchange cancelled');
    const id = rpcId();
    const abort = new AbortController();
    const res = await post(proxy.app.mcpUrl, toolCall(id, 'slow-sse', { count: 200, ms: 10 }), { signal: abort.signal });
    const reader = res.body!.getReader();
    let text = '';
    while (dataEvents(text).length < 3) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    await eventually(async () => (proxy.upstream.seen.closedEarly.get('slow-sse') ? true : undefined), 'the upstream to see the close');
    const exchange = await eventually(async () => {
      const ex = (await exchanges(proxy.app)).find((e) => e.rpcId === id);
      return ex && ex.status !== 'pending' ? ex : undefined;
    }, 'the exchange to end');
    const { frames } = await framesOfCall(proxy.app, id, exchange.frameSeqs.length);
    const progress = frames.filter((f) => f.kind === 'data' && f.direction === 's2c').map((f) => JSON.parse(f.raw).params.progress as number);
    row.observed(`upstream closed early: yes; ${progress.length} events recorded (1..${progress.length}), exchange ${exchange.status}`);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual(progress.map((_, i) => i + 1));
    expect(frames.some((f) => f.kind === 'transport' && f.raw.includes('client-disconnected'))).toBe(true);
    expect(exchange.status).toBe('cancelled');
  });

  it('deeply nested JSON (100,000 levels) in a request and in an answer: no stack overflow', async () => {
    const row = report.row('request params and answer nested 100,000 arrays deep', 'forwarded byte for byte both ways, both recorded whole (as invalid messages that nest too deep to read), mcpscope stays up');
    const id = rpcId();
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const request = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"nested","arguments":{"depth":100000},"deep":${deep}}}`;
    const res = await post(proxy.app.mcpUrl, request);
    const text = await res.text();
    // Too deep to read, so never paired by id: found by what they hold.
    const [c2s, s2c] = await eventually(async () => {
      const frames = await framesAfter(proxy.app);
      const pair = [frames.find((f) => f.direction === 'c2s' && f.size === request.length), frames.find((f) => f.direction === 's2c' && f.size === text.length)];
      return pair[0] && pair[1] ? pair : undefined;
    }, 'both deep frames to be recorded');
    const invalid = (await exchanges(proxy.app)).filter((e) => e.kind === 'invalid' && (e.frameSeqs.includes(c2s!.seq) || e.frameSeqs.includes(s2c!.seq)));
    row.observed(`${res.status}, answer ${text.length} chars, recorded sizes ${c2s?.size} / ${s2c?.size}; ${invalid.length} invalid rows: ${invalid[0]?.errorMessage}`);
    expect(res.status).toBe(200);
    expect(text.length).toBe(200_000 + `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"deep":}}`.length);
    expect(c2s?.size).toBe(request.length);
    expect(s2c?.size).toBe(text.length);
    expect(invalid.map((e) => e.errorMessage)).toEqual([expect.stringMatching(/deeper than 512/), expect.stringMatching(/deeper than 512/)]);
  });
});
