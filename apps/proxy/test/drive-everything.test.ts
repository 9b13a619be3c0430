// The dashboard's Drive panel against real servers: a call built from a tool's form (nested and
// enum arguments), a schema-breaking value refused first and then sent anyway, and the server's
// own questions to mcpscope's dashboard session (roots, elicitation, sampling) answered by the
// user, or by the answers set for unattended runs. Everything sent is labelled fromDashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formModel, fromForm, initialForm, isFormObject, type DriveLists, type DriveRefusal, type DriveSendResponse, type ExchangeDetail, type FormValue, type JsonObject, type ReplayInput } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { api, apiFetch, apiGet } from './support/api.js';
import { startEverything, type Everything } from './support/everything.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { startTripServer } from './support/trip-server.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const answerText = (detail: ExchangeDetail) => JSON.stringify(JSON.parse(detail.frames.find((f) => f.seq === detail.exchange.responseSeq)!.raw));
const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

async function ownToolsList(app: Mcpscope): Promise<{ sessionKey: string; lists: DriveLists }> {
  const sent = await api<DriveSendResponse>(app, '/api/drive/send', { message: listTools, mode: 'fresh' });
  expect(sent.status).toBe(200);
  const lists = await apiGet<DriveLists>(app, `/api/drive/lists?session=${encodeURIComponent(sent.body.sessionKey)}`);
  return { sessionKey: sent.body.sessionKey, lists };
}

describe('a call built from a form (official SDK server, nested and enum arguments)', () => {
  const trip = proxiedUpstream(startTripServer);

  it('fills the tool\'s form, sends it from mcpscope\'s own session, and labels it with the list it came from', async () => {
    const { lists } = await ownToolsList(trip.app);
    const tool = lists.tools.items.find((t) => t.name === 'plan-trip')!;
    const model = formModel(tool.inputSchema);
    const form = initialForm(model);
    if (!isFormObject(form)) throw new Error('the arguments form is an object');
    const traveller = form.fields.traveller!.value as FormValue;
    if (!isFormObject(traveller)) throw new Error('traveller is a nested object');
    traveller.fields.name!.value = 'Ada';
    traveller.fields.age!.value = '36';
    form.fields.mode!.value = 2; // the third option
    form.fields.stops!.value = ['Lyon', 'Turin'];
    const { value: args } = fromForm(model, form);
    expect(args).toEqual({ traveller: { name: 'Ada', age: 36 }, mode: 'boat', stops: ['Lyon', 'Turin'], refundable: false });

    const message = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'plan-trip', arguments: args } };
    const sent = await api<DriveSendResponse>(trip.app, '/api/drive/send', { message, mode: 'fresh', from: lists.tools.exchangeId });
    expect(sent.status).toBe(200);
    expect(sent.body.violations).toEqual([]);
    expect(sent.body.exchange).toMatchObject({ status: 'ok', fromDashboard: lists.tools.exchangeId });
    const detail = await apiGet<ExchangeDetail>(trip.app, `/api/exchanges/${sent.body.exchange.id}`);
    expect(answerText(detail)).toContain(JSON.stringify(JSON.stringify(args)).slice(1, -1));
    const session = trip.app.store.sessions().find((s) => s.sessionKey === sent.body.sessionKey);
    expect(session).toMatchObject({ transport: 'replay', userAgent: 'mcpscope (dashboard)', clientCapabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } });
  });
});

describe('server-everything driven from the dashboard', () => {
  let everything: Everything;
  let app: Mcpscope;
  let sessionKey: string;
  let lists: DriveLists;

  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
    app = await startTestMcpscope({ target: everything.url });
    const own = await api<{ sessionKey: string }>(app, '/api/drive/own', {});
    expect(own.status).toBe(200);
    sessionKey = own.body.sessionKey;
  });
  afterAll(async () => {
    await app?.close();
    await everything?.close();
  });

  const pending = (method: string) => until(method, async () => (await apiGet<{ inputs: ReplayInput[] }>(app, '/api/replay/inputs')).inputs.find((i) => i.method === method && i.sessionKey === sessionKey));
  const answer = (input: ReplayInput, result: JsonObject) => api(app, `/api/replay/inputs/${input.key}`, { action: 'answer', result });

  it('answers the roots/list the server asks on the session\'s own stream, and the server uses them', async () => {
    const ask = await pending('roots/list');
    expect(ask.exchangeId).toBeDefined();
    expect((await answer(ask, { roots: [{ uri: 'file:///work/project', name: 'project' }] })).status).toBe(204);
    lists = (await ownToolsList(app)).lists;
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-roots-list', arguments: {} } };
    const sent = await api<DriveSendResponse>(app, '/api/drive/send', { message: call, mode: 'fresh', from: lists.tools.exchangeId });
    expect(answerText(await apiGet<ExchangeDetail>(app, `/api/exchanges/${sent.body.exchange.id}`))).toContain('file:///work/project');
    await until('the answered roots/list labelled', async () => (app.store.exchange(ask.exchangeId!)?.fromDashboard === ask.exchangeId ? true : undefined));
  });

  it('refuses an enum value the schema lacks, shows why, then sends it anyway and captures the server\'s answer', async () => {
    const message = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get-annotated-message', arguments: { messageType: 'shout', includeImage: false } } };
    const refused = await api<DriveRefusal>(app, '/api/drive/send', { message, mode: 'fresh', from: lists.tools.exchangeId });
    expect(refused.status).toBe(422);
    expect(refused.body.violations).toEqual([expect.objectContaining({ path: '$.params.arguments.messageType', message: expect.stringMatching(/must be one of/) })]);
    const before = app.store.exchanges(500).filter((e) => e.target === 'get-annotated-message').length;
    expect(before).toBe(0);
    const sent = await api<DriveSendResponse>(app, '/api/drive/send', { message, mode: 'fresh', from: lists.tools.exchangeId, anyway: true });
    expect(sent.status).toBe(200);
    expect(sent.body.violations).toHaveLength(1);
    expect(sent.body.exchange).toMatchObject({ target: 'get-annotated-message', fromDashboard: lists.tools.exchangeId });
    expect(sent.body.exchange.status).not.toBe('ok');
    expect(answerText(await apiGet<ExchangeDetail>(app, `/api/exchanges/${sent.body.exchange.id}`))).toMatch(/messageType|invalid/i);
  });

  it('holds an elicitation for the user and sends the form they accept', async () => {
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'trigger-elicitation-request', arguments: {} } };
    const sending = api<DriveSendResponse>(app, '/api/drive/send', { message: call, mode: 'fresh', from: lists.tools.exchangeId });
    const ask = await pending('elicitation/create');
    const model = formModel((ask.params as JsonObject).requestedSchema);
    const form = initialForm(model);
    if (!isFormObject(form)) throw new Error('an elicitation form is an object');
    form.fields.name!.value = 'Ada Lovelace';
    expect((await answer(ask, { action: 'accept', content: fromForm(model, form).value as JsonObject })).status).toBe(204);
    const sent = await sending;
    expect(sent.body.exchange.status).toBe('ok');
    const text = answerText(await apiGet<ExchangeDetail>(app, `/api/exchanges/${sent.body.exchange.id}`));
    expect(text).toContain('Name: Ada Lovelace');
    expect(text).toContain('Favorite Integer: 42');
  });

  it('holds a sampling request for the user and sends the reply they typed', async () => {
    const call = { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'trigger-sampling-request', arguments: { prompt: 'Say hi', maxTokens: 20 } } };
    const sending = api<DriveSendResponse>(app, '/api/drive/send', { message: call, mode: 'fresh', from: lists.tools.exchangeId });
    const ask = await pending('sampling/createMessage');
    expect(JSON.stringify(ask.params)).toContain('Say hi');
    expect((await answer(ask, { role: 'assistant', content: { type: 'text', text: 'Hi from the dashboard' }, model: 'typed-by-hand' })).status).toBe(204);
    const sent = await sending;
    expect(answerText(await apiGet<ExchangeDetail>(app, `/api/exchanges/${sent.body.exchange.id}`))).toContain('Hi from the dashboard');
  });

  it('answers by itself once answers for unattended runs are set', async () => {
    const set = await apiFetch(app, '/api/drive/answers', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sampling: { text: 'unattended reply' }, elicitation: 'accept' }) });
    expect(set.status).toBe(200);
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'trigger-sampling-request', arguments: { prompt: 'Anyone there?' } } };
    const sent = await api<DriveSendResponse>(app, '/api/drive/send', { message: call, mode: 'fresh', from: lists.tools.exchangeId });
    expect(answerText(await apiGet<ExchangeDetail>(app, `/api/exchanges/${sent.body.exchange.id}`))).toContain('unattended reply');
    const elicit = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'trigger-elicitation-request', arguments: {} } };
    const accepted = await api<DriveSendResponse>(app, '/api/drive/send', { message: elicit, mode: 'fresh', from: lists.tools.exchangeId });
    expect(answerText(await apiGet<ExchangeDetail>(app, `/api/exchanges/${accepted.body.exchange.id}`))).toContain('Favorite Integer: 42');
    const bad = await apiFetch(app, '/api/drive/answers', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ elicitation: 'maybe' }) });
    expect(bad.status).toBe(400);
  });
});
