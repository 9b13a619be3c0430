// The tap in front of server-everything (Streamable HTTP, stateful, resumable): an official SDK
// client gets the same answers through the tap as directly, and the capture holds every frame
// of the session exactly once, in order, with the right direction.
import { describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { settled } from './helpers.js';
import { startEverything } from './support/everything.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { exercise, newClient, recordWire } from './support/scenario.js';
import { asMultiset, dataFrames, parsed } from './support/capture.js';

const proxy = proxiedUpstream(() => startEverything('streamableHttp'));

describe('Streamable HTTP through the tap (server-everything)', () => {
  it('gives the SDK client the same results as a direct connection, and captures every frame once', async () => {
    const direct = newClient();
    await direct.connect(new StreamableHTTPClientTransport(new URL(proxy.upstream.url)));
    const expected = await exercise(direct);
    await direct.close();

    const { transport, wire } = recordWire(new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl)));
    const client = newClient();
    await client.connect(transport);
    const got = await exercise(client);
    expect(got).toEqual(expected);
    expect(got.progress).toEqual([1, 2, 3]);
    expect(got.sampling).toContain('sampled: Resource trigger-sampling-request context: a haiku');
    expect(got.elicitation).toContain('decline');

    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    await settled(proxy.app);

    // Client → server: exactly the messages the client sent, in the order it sent them.
    expect(parsed(dataFrames(proxy.app, sessionId, 'c2s'))).toEqual(wire.sent);
    // Server → client: exactly what the client received (streams interleave, so compare as sets)…
    const s2c = dataFrames(proxy.app, sessionId, 's2c');
    expect(asMultiset(parsed(s2c))).toEqual(asMultiset(wire.received));
    // …and every exchange is complete, with its request before its response.
    const exchanges = proxy.app.store.exchanges(1000).filter((e) => e.sessionKey === sessionId && e.kind === 'request');
    expect(exchanges.length).toBeGreaterThan(10);
    for (const ex of exchanges) {
      expect(ex.status, `${ex.method} ${ex.target ?? ''}`).toMatch(/^(ok|business_error)$/);
      expect(ex.requestSeq!).toBeLessThan(ex.responseSeq!);
    }
    const sampling = exchanges.find((e) => e.method === 'sampling/createMessage');
    expect(sampling).toMatchObject({ requester: 'server', status: 'ok' });
    const longCall = exchanges.find((e) => e.target === 'trigger-long-running-operation');
    expect(longCall!.frameSeqs).toHaveLength(5); // request, three progress notifications, result

    const session = proxy.app.store.sessions().find((s) => s.sessionKey === sessionId);
    expect(session).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: { name: 'mcpscope-test' }, serverInfo: { name: expect.any(String) } });
    expect(session!.userAgent).toBeTruthy();
  });

  it('ends the session with DELETE: the upstream forgets it and says so through the tap', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl));
    const client = newClient();
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(proxy.app.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect([400, 404]).toContain(after.status);
    await client.close();
  });

  it('resumes a dropped stream with Last-Event-ID through the tap, and the answer still pairs', async () => {
    // A fetch that cuts the tools/call stream right after its first progress event, as a flaky
    // network would; the SDK then resumes with GET + Last-Event-ID.
    let cut = false;
    const cuttingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const isLongCall = typeof init?.body === 'string' && init.body.includes('trigger-long-running-operation');
      if (!isLongCall || !res.body) return res;
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          if (new TextDecoder().decode(value).includes('notifications/progress')) {
            cut = true;
            await reader.cancel();
            controller.error(new TypeError('network dropped'));
          }
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const { transport, wire } = recordWire(
      new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl), { fetch: cuttingFetch, reconnectionOptions: { initialReconnectionDelay: 1500, maxReconnectionDelay: 3000, reconnectionDelayGrowFactor: 1.5, maxRetries: 4 } }),
    );
    const client = newClient();
    await client.connect(transport);
    const progress: number[] = [];
    // server-everything 2026.8.31 replays a stream only once the call is over (a resume that
    // arrives mid-call gets no further events, directly as through the tap), so the client waits
    // longer than the call before it resumes.
    const result = await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(cut).toBe(true);
    expect(progress).toEqual([1, 2, 3]);
    expect(JSON.stringify(result.content)).toContain('completed');
    const sessionId = transport.sessionId!;
    await client.close();
    await settled(proxy.app);

    const resumed = proxy.app.store.framesAfter(0, 10000).filter((f) => f.sessionKey === sessionId && f.direction === 's2c' && f.kind === 'data');
    expect(asMultiset(parsed(proxy.app.store.framesBySeq(resumed.map((f) => f.seq))))).toEqual(asMultiset(wire.received));
    const call = proxy.app.store.exchanges(1000).find((e) => e.sessionKey === sessionId && e.target === 'trigger-long-running-operation');
    expect(call).toMatchObject({ status: 'ok' });
  });

  it('forwards a batch as one body and records it as one frame with its answers', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(proxy.app.mcpUrl, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batcher', version: '1' } } }) });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const withSession = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    await (await fetch(proxy.app.mcpUrl, { method: 'POST', headers: withSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    const batch = '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"}]';
    const text = await (await fetch(proxy.app.mcpUrl, { method: 'POST', headers: withSession, body: batch })).text();
    expect(text).toContain('"id":"a"');
    expect(text).toContain('"id":"b"');
    await settled(proxy.app);
    expect(dataFrames(proxy.app, sessionId, 'c2s').map((f) => f.raw)).toContain(batch);
    const pings = proxy.app.store.exchanges(1000).filter((e) => e.sessionKey === sessionId && e.method === 'ping');
    expect(pings.map((e) => [e.rpcId, e.status]).sort()).toEqual([['a', 'ok'], ['b', 'ok']]);
  });

  it('passes the SSE wire format through byte for byte: priming event, ids, event names', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const res = await fetch(proxy.app.mcpUrl, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const text = await res.text();
    expect(text).toMatch(/^id: [0-9a-f-]+\ndata: \n\nevent: message\nid: [0-9a-f-]+\ndata: \{.*"serverInfo".*\}\n\n$/s);
  });
});

