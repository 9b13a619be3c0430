// Legacy HTTP+SSE (2024-11-05) through the tap, against server-everything in `sse` mode: the
// `endpoint` event is rewritten so the SDK's SSEClientTransport posts back through the tap, and
// the POSTed requests pair with the responses that come back on the SSE stream.
import { describe, expect, it } from 'vitest';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { settled } from './helpers.js';
import { startEverything } from './support/everything.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { exercise, newClient, recordWire } from './support/scenario.js';
import { dataFrames, parsed } from './support/capture.js';

const proxy = proxiedUpstream(() => startEverything('sse'));

describe('legacy HTTP+SSE through the tap (server-everything sse)', () => {
  it('gives SSEClientTransport the same results as a direct connection, and pairs every answer', async () => {
    const direct = newClient();
    await direct.connect(new SSEClientTransport(new URL(proxy.upstream.url)));
    const expected = await exercise(direct);
    await direct.close();

    const { transport, wire } = recordWire(new SSEClientTransport(new URL(proxy.app.mcpUrl)));
    const client = newClient();
    await client.connect(transport);
    const got = await exercise(client);
    expect(got).toEqual(expected);
    await client.close();
    await settled(proxy.app);

    const sessions = proxy.app.store.sessions().filter((s) => s.transport === 'legacy-sse');
    expect(sessions).toHaveLength(1);
    const key = sessions[0]!.sessionKey;
    expect(sessions[0]).toMatchObject({ clientInfo: { name: 'mcpscope-test' }, protocolVersion: '2025-11-25' });
    const c2s = dataFrames(proxy.app, key, 'c2s');
    const s2c = dataFrames(proxy.app, key, 's2c');
    expect(parsed(c2s)).toEqual(wire.sent);
    expect(parsed(s2c)).toEqual(wire.received); // one stream: the order is the wire's order
    expect(new Set([...c2s, ...s2c].map((f) => f.transport))).toEqual(new Set(['legacy-sse']));
    const exchanges = proxy.app.store.exchanges(1000).filter((e) => e.sessionKey === key && e.kind === 'request');
    expect(exchanges.length).toBeGreaterThan(10);
    for (const ex of exchanges) expect(ex.status, `${ex.method} ${ex.target ?? ''}`).toMatch(/^(ok|business_error)$/);
    expect(exchanges.find((e) => e.method === 'sampling/createMessage')).toMatchObject({ requester: 'server', status: 'ok' });
  });

  it('rewrites the endpoint event to the client-facing origin and keeps sessionId byte for byte', async () => {
    const res = await fetch(proxy.app.mcpUrl, { headers: { accept: 'text/event-stream' } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const data = /data: (.*)/.exec(text)![1]!;
    expect(data).toMatch(/^\/message\?sessionId=[0-9a-f-]{36}$/);
  });
});
