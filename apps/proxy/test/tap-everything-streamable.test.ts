// The tap in front of server-everything (Streamable HTTP, stateful, resumable): an official SDK
// client gets the same answers through the tap as directly, and the capture holds every frame
// of the session exactly once, in order, with the right direction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Mcpscope } from '../src/server.js';
import { settled, startTestMcpscope } from './helpers.js';
import { startEverything, type Everything } from './support/everything.js';
import { exercise, newClient, recordWire } from './support/scenario.js';
import { asMultiset, dataFrames, parsed } from './support/capture.js';

let upstream: Everything;
let app: Mcpscope;
beforeAll(async () => {
  upstream = await startEverything('streamableHttp');
  app = await startTestMcpscope({ target: upstream.url });
});
afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('Streamable HTTP through the tap (server-everything)', () => {
  it('gives the SDK client the same results as a direct connection, and captures every frame once', async () => {
    const direct = newClient();
    await direct.connect(new StreamableHTTPClientTransport(new URL(upstream.url)));
    const expected = await exercise(direct);
    await direct.close();

    const { transport, wire } = recordWire(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
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
    await settled(app);

    // Client → server: exactly the messages the client sent, in the order it sent them.
    expect(parsed(dataFrames(app, sessionId, 'c2s'))).toEqual(wire.sent);
    // Server → client: exactly what the client received (streams interleave, so compare as sets)…
    const s2c = dataFrames(app, sessionId, 's2c');
    expect(asMultiset(parsed(s2c))).toEqual(asMultiset(wire.received));
    // …and every exchange is complete, with its request before its response.
    const exchanges = app.store.exchanges(1000).filter((e) => e.sessionKey === sessionId && e.kind === 'request');
    expect(exchanges.length).toBeGreaterThan(10);
    for (const ex of exchanges) {
      expect(ex.status, `${ex.method} ${ex.target ?? ''}`).toMatch(/^(ok|business_error)$/);
      expect(ex.requestSeq!).toBeLessThan(ex.responseSeq!);
    }
    const sampling = exchanges.find((e) => e.method === 'sampling/createMessage');
    expect(sampling).toMatchObject({ requester: 'server', status: 'ok' });
    const longCall = exchanges.find((e) => e.target === 'trigger-long-running-operation');
    expect(longCall!.frameSeqs).toHaveLength(5); // request, three progress notifications, result

    const session = app.store.sessions().find((s) => s.sessionKey === sessionId);
    expect(session).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: { name: 'mcpscope-test' }, serverInfo: { name: expect.any(String) } });
    expect(session!.userAgent).toBeTruthy();
  });

  it('ends the session with DELETE: the upstream forgets it and says so through the tap', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl));
    const client = newClient();
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(app.mcpUrl, {
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
      new StreamableHTTPClientTransport(new URL(app.mcpUrl), { fetch: cuttingFetch, reconnectionOptions: { initialReconnectionDelay: 1500, maxReconnectionDelay: 3000, reconnectionDelayGrowFactor: 1.5, maxRetries: 4 } }),
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
    await settled(app);

    const resumed = app.store.framesAfter(0, 10000).filter((f) => f.sessionKey === sessionId && f.direction === 's2c' && f.kind === 'data');
    expect(asMultiset(parsed(app.store.framesBySeq(resumed.map((f) => f.seq))))).toEqual(asMultiset(wire.received));
    const call = app.store.exchanges(1000).find((e) => e.sessionKey === sessionId && e.target === 'trigger-long-running-operation');
    expect(call).toMatchObject({ status: 'ok' });
  });
});
