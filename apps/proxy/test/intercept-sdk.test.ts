// Intercept rules on a real session: the official SDK client through the tap to server-everything,
// one rule at a time (each `once`), asserting what the client observably does and what the capture
// keeps (the rule named on the exchange, injected frames marked, the original beside them, the
// client's reaction). SDK timeouts are set per request, short, so nothing waits for the 60 s default.
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Intervention } from '@mcpscope/protocol';
import { settled } from './helpers.js';
import { startEverything } from './support/everything.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { newClient } from './support/scenario.js';
import { api, apiGet } from './support/api.js';
import type { InterceptResponse } from '@mcpscope/protocol';

const proxy = proxiedUpstream(() => startEverything('streamableHttp'));

async function connected() {
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl));
  await client.connect(transport);
  return { client, transport };
}

function addRule(text: string): string {
  const added = proxy.app.intercept.add(text);
  if (!added.ok) throw new Error(added.error.message);
  return added.rule.id;
}

/** Waits for a condition the tap reaches by itself (no fixed sleeps). */
async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const lastIntervention = (ruleId: string): Intervention | undefined => proxy.app.intercept.interventions().filter((i) => i.ruleId === ruleId).at(-1);

afterEach(() => {
  for (const rule of proxy.app.intercept.rules.list()) proxy.app.intercept.remove(rule.id);
});

describe('intercept rules against the SDK client and server-everything', () => {
  it('error: the client gets the JSON-RPC error, the server never sees the call, and a retry is the reaction', async () => {
    const { client } = await connected();
    const rule = addRule('tool:echo => error -32602 "bad arguments" once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'hi' } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('bad arguments') });
    const retried = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(retried.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    await settled(proxy.app);
    const made = proxy.app.store.exchanges(1000).filter((e) => e.target === 'echo');
    const injected = made.find((e) => e.intercepted?.rule === rule)!;
    expect(injected).toMatchObject({ status: 'protocol_error', errorCode: -32602, intercepted: { action: 'error', text: 'tool:echo => error -32602 "bad arguments" once' } });
    const answer = proxy.app.store.frames([injected.responseSeq!])[0]!;
    expect(answer.http?.injected).toMatchObject({ rule, what: 'made' });
    const reaction = await until(() => lastIntervention(rule)?.reaction?.events.find((e) => e.kind === 'retried'), 'the retry');
    expect(reaction.count).toBe(1);
    await client.close();
  });

  it('is-error and replace: the client gets the result the rule made', async () => {
    const { client } = await connected();
    addRule('tool:echo => is-error "quota exceeded" once');
    expect(await client.callTool({ name: 'echo', arguments: { message: 'a' } })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'quota exceeded' }] });
    addRule('tool:echo => replace {"content":[{"type":"text","text":"stored answer"}]} once');
    expect((await client.callTool({ name: 'echo', arguments: { message: 'a' } })).content).toEqual([{ type: 'text', text: 'stored answer' }]);
    await client.close();
  });

  it('delay past the client timeout: the SDK times out and sends notifications/cancelled (the reaction card says cancelled)', async () => {
    const { client } = await connected();
    const rule = addRule('tool:echo => delay 1s once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'slow' } }, undefined, { timeout: 150 })).rejects.toMatchObject({ code: -32001 });
    const cancelled = await until(() => lastIntervention(rule)?.reaction?.events.find((e) => e.kind === 'cancelled'), 'the cancellation');
    expect(cancelled.count).toBe(1);
    expect(lastIntervention(rule)!.note).toContain('held 1000 ms');
    await client.close();
  });

  it('drop: the answer never arrives, the SDK times out and cancels; the capture keeps the answer the server gave', async () => {
    const { client } = await connected();
    const rule = addRule('tool:echo => drop once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'lost' } }, undefined, { timeout: 300 })).rejects.toMatchObject({ code: -32001 });
    await until(() => lastIntervention(rule)?.reaction?.events.find((e) => e.kind === 'cancelled'), 'the cancellation');
    expect(lastIntervention(rule)!.original).toContain('Echo: lost');
    await client.close();
  });

  it('inflate: the client gets the result padded to the size; the original is kept beside it', async () => {
    const { client } = await connected();
    const rule = addRule('tool:echo => inflate 200kb once');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'big' } });
    expect(JSON.stringify(result).length).toBeGreaterThan(200 * 1024 - 100);
    const entry = await until(() => lastIntervention(rule), 'the intervention');
    expect(entry.original).toContain('Echo: big');
    expect(entry.original!.length).toBeLessThan(1000);
    await settled(proxy.app);
    expect(proxy.app.store.frames([entry.deliveredSeq])[0]!.http?.injected).toMatchObject({ rule, what: 'changed' });
    await client.close();
  });

  it('notify: the client receives tools/list_changed before its answer', async () => {
    const { client } = await connected();
    let heard = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard++);
    addRule('tool:echo => notify notifications/tools/list_changed once');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'n' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: n' }]);
    expect(heard).toBe(1);
    await client.close();
  });

  it('http 404 on the session: the SDK surfaces the 404 as an error to the caller (it does not re-initialize by itself)', async () => {
    const { client } = await connected();
    addRule('method:tools/call => http 404 once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow(/404/);
    await client.close();
  });

  it('http 429 with Retry-After and 503: the SDK surfaces each status as an error; the next call goes through', async () => {
    const { client } = await connected();
    addRule('tool:echo => http 429 retry-after=5 once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow(/429/);
    addRule('tool:echo => http 503 once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow(/503/);
    expect((await client.callTool({ name: 'echo', arguments: { message: 'x' } })).content).toEqual([{ type: 'text', text: 'Echo: x' }]);
    await client.close();
  });

  it('http 401 with WWW-Authenticate mid-session: the SDK without an auth provider fails the call as unauthorized', async () => {
    const { client } = await connected();
    addRule('tool:echo => http 401 www-authenticate="Bearer resource_metadata=\\"http://127.0.0.1:1/.well-known/oauth-protected-resource\\"" once');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow(/401|nauthorized/);
    await client.close();
  });

  it('pause on the answer from the API: held, edited, released; the client gets the edit and the capture holds both', async () => {
    const { client } = await connected();
    const added = await api<{ id: string }>(proxy.app, '/api/intercept/rules', { text: 'tool:echo => pause response once' });
    expect(added.status).toBe(201);
    expect((await api(proxy.app, '/api/intercept/rules', { text: 'tool:echo => pause' }, 'wrong-token-wrong-token')).status).toBe(401);
    const call = client.callTool({ name: 'echo', arguments: { message: 'orig' } });
    let view: InterceptResponse['held'][number] | undefined;
    for (let i = 0; i < 500 && !view; i++) {
      view = (await apiGet<InterceptResponse>(proxy.app, '/api/intercept')).held[0];
      if (!view) await new Promise((r) => setTimeout(r, 10));
    }
    expect(view).toMatchObject({ direction: 's2c', ruleText: 'tool:echo => pause response once' });
    expect(view!.deadline - view!.since).toBe(20_000);
    const edited = view!.raw.replace('Echo: orig', 'Echo: edited');
    expect((await api(proxy.app, `/api/intercept/held/${view!.id}/release`, { text: edited })).status).toBe(200);
    expect((await call).content).toEqual([{ type: 'text', text: 'Echo: edited' }]);
    const entry = await until(() => lastIntervention(added.body.id), 'the intervention');
    expect(entry.original).toContain('Echo: orig');
    await settled(proxy.app);
    expect(proxy.app.store.frames([entry.deliveredSeq])[0]!.raw).toContain('Echo: edited');
    await client.close();
  });

  it('pause with a short deadline: the frame goes on unchanged by itself, and the note says so', async () => {
    const { client } = await connected();
    const rule = addRule('tool:echo => pause for 100ms once');
    expect((await client.callTool({ name: 'echo', arguments: { message: 'late' } })).content).toEqual([{ type: 'text', text: 'Echo: late' }]);
    expect((await until(() => lastIntervention(rule), 'the intervention')).note).toContain("released by itself at the rule's deadline");
    await client.close();
  });

  it('cut-stream: the stream is cut after one event; the SDK resumes it with Last-Event-ID and still gets every event and the result', async () => {
    const { client } = await connected();
    const rule = addRule('tool:trigger-long-running-operation => cut-stream after 1 once');
    const progress: number[] = [];
    const result = await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { timeout: 5000, onprogress: (p) => void progress.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('Long running operation completed') }]);
    expect(progress).toEqual([1, 2, 3]);
    const entry = await until(() => lastIntervention(rule), 'the intervention');
    expect(entry.note).toContain('cut after 1 events');
    // The rest came on a GET with Last-Event-ID (server-everything keeps its events), which no rule touched.
    await settled(proxy.app);
    expect(proxy.app.store.exchanges(1000).find((e) => e.intercepted?.rule === rule)).toMatchObject({ status: 'ok' });
    await client.close();
  });
});
