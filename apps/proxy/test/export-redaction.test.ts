// No secret that went through the tap leaves mcpscope in an export unless the user asks for it:
// not in JSONL, HAR, curl, nor the preview. Redaction keeps what the capture means (statuses,
// error codes, progress tokens), and the user's own keys and JSON paths go too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/server.js';
import { connectClient, settled, startTestMcpscope } from './helpers.js';
import { api, normalisedViews } from './export-support.js';

const HEADER_SECRETS = ['sk-live-AAAA1111secret', 'cookie-FFFF6666secret'];
const BODY_SECRETS = ['ak-BBBB2222secret', 'pw-GGGG7777secret', 'cs-HHHH8888secret', 'meta-CCCC3333secret', 'oauth-DDDD4444secret', 'qs-EEEE5555secret', 'verifier-IIII9999secret'];
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEiLCJleHAiOjk5OTk5OTk5OTl9.c2lnbmF0dXJlLXNlY3JldA';
const ALL = [...HEADER_SECRETS, ...BODY_SECRETS, JWT];

let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  app = await startTestMcpscope();
  client = await connectClient(app.mcpUrl, { headers: { authorization: `Bearer ${HEADER_SECRETS[0]}`, cookie: `sid=${HEADER_SECRETS[1]}` } });
  await client.callTool({
    name: 'suggest_gifts',
    arguments: {
      occasion: 'birthday',
      budget: 60,
      recipient: 'Ada-the-recipient',
      api_key: BODY_SECRETS[0],
      login: { user: 'ada', password: BODY_SECRETS[1], oauth: { client_secret: BODY_SECRETS[2] } },
      note: `token ${JWT} attached`,
      token_request: { grant_type: 'authorization_code', code: BODY_SECRETS[4], code_verifier: BODY_SECRETS[6] },
    },
    _meta: { 'com.example/credentials': BODY_SECRETS[3] },
  }).catch(() => undefined);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'cheap' } }).catch(() => undefined);
  await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 } }, undefined, { onprogress: () => {} });
  await fetch(`${app.mcpUrl}?access_token=${BODY_SECRETS[5]}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":"x","method":"ping"}' });
  await settled(app);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

const text = async (path: string) => {
  const res = await api(app, path);
  expect(res.status).toBe(200);
  return res.text();
};
const leaked = (body: string, secrets = ALL) => secrets.filter((s) => body.includes(s));

describe('redaction by default', () => {
  it('the secrets really went through the tap (the test would catch a leak)', async () => {
    const raw = (await text('/api/export?format=jsonl&unredacted=1'));
    // client_secret and code_verifier never reach the store at all (redacted at capture);
    // the rest are stored as sent and must be caught by the export's redaction.
    const redactedAtCapture = [BODY_SECRETS[2]!, BODY_SECRETS[6]!];
    const storedVerbatim = BODY_SECRETS.filter((s) => !redactedAtCapture.includes(s));
    expect(leaked(raw, [...storedVerbatim, JWT])).toEqual([...storedVerbatim, JWT]);
    expect(leaked(raw, redactedAtCapture)).toEqual([]);
    // Header credentials never reach the store at all, so not even an unredacted export has them.
    expect(leaked(raw, HEADER_SECRETS)).toEqual([]);
  });

  it('JSONL, HAR, every curl and the preview carry none of them', async () => {
    const outputs = [await text('/api/export?format=jsonl'), await text('/api/export?format=har'), await text('/api/export/preview?format=har')];
    for (const ex of app.store.exchanges(1000).filter((e) => e.requester === 'client')) outputs.push(await text(`/api/export?format=curl&exchange=${ex.id}`));
    expect(outputs.length).toBeGreaterThan(6);
    for (const out of outputs) expect(leaked(out)).toEqual([]);
  });

  it('says what it will redact, and how often, before the download', async () => {
    const preview = (await (await api(app, '/api/export/preview?format=jsonl')).json()) as { frames: number; redaction: { enabled: boolean; rules: string[]; hits: { rule: string; count: number }[] } };
    expect(preview.redaction.enabled).toBe(true);
    expect(preview.redaction.rules).toEqual(expect.arrayContaining([expect.stringContaining('credential headers')]));
    const rules = preview.redaction.hits.map((h) => h.rule);
    expect(rules).toEqual(expect.arrayContaining(['key api_key', 'key password', 'key client_secret', 'key code (OAuth)', 'key code_verifier', '_meta com.example/credentials', 'query access_token', 'jwt']));
  });

  it('keeps what the capture means: importing a redacted export derives the same statuses and codes', async () => {
    const target = await startTestMcpscope();
    try {
      const res = await api(target, '/api/import?name=shared.jsonl', { method: 'POST', body: await text('/api/export?format=jsonl') });
      expect(res.status).toBe(200);
      const pick = (views: ReturnType<typeof normalisedViews>) =>
        (views.exchanges as { method?: string; status: string; errorCode?: number; frameSeqs: unknown[] }[]).map((e) => [e.method, e.status, e.errorCode, e.frameSeqs.length]);
      expect(pick(normalisedViews(target, 'shared.jsonl'))).toEqual(pick(normalisedViews(app)));
      expect(pick(normalisedViews(app))).toEqual(expect.arrayContaining([['tools/call', 'protocol_error', -32602, 2], ['tools/call', 'ok', undefined, 4]]));
    } finally {
      await target.close();
    }
  });

  it('redacts the keys and JSON paths the user adds, and their echoes, and nothing else of theirs', async () => {
    const out = await text(`/api/export?format=jsonl&redact=recipient&redact=${encodeURIComponent('$.params.arguments.occasion')}`);
    const bodies = out.trimEnd().split('\n').slice(1).map((l) => JSON.parse(l).raw as string);
    const calls = bodies.map((b) => JSON.parse(b)).filter((m) => m.params?.name === 'suggest_gifts').map((m) => m.params.arguments);
    expect(calls[0]).toMatchObject({ occasion: '[redacted]', budget: 60, recipient: '[redacted]', login: { user: 'ada' } });
    // The tool's answer named the recipient ("Gift ideas for Ada-the-recipient"): the echo goes too.
    expect(out).not.toContain('Ada-the-recipient');
    expect(bodies.some((b) => b.includes('Gift ideas for [redacted]'))).toBe(true);
  });

  it('exports secrets only on the explicit opt-in, and says so in the file', async () => {
    const out = await text('/api/export?format=jsonl&unredacted=1');
    expect(JSON.parse(out.split('\n')[0]!).redaction).toEqual({ enabled: false, rules: [] });
    const redacted = await text('/api/export?format=jsonl');
    expect(JSON.parse(redacted.split('\n')[0]!).redaction).toMatchObject({ enabled: true, rules: expect.arrayContaining([expect.any(String)]) });
  });
});
