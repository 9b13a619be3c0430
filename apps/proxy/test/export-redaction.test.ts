// No secret that went through the tap leaves mcpscope in an export unless the user asks for it:
// not in JSONL, HAR, curl, nor the preview. Redaction keeps what the capture means (statuses,
// error codes, progress tokens), and the user's own keys and JSON paths go too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { jsonlFrameLines } from './support/jsonl.js';
import { api, normalisedViews } from './export-support.js';

/** Redacted at capture: credential headers, OAuth secret keys in bodies (redaction/redact-secrets.ts), credentials in the URL's query. */
const CAPTURE_REDACTED = ['sk-live-AAAA1111secret', 'cookie-FFFF6666secret', 'cs-HHHH8888secret', 'verifier-IIII9999secret', 'qs-EEEE5555secret'];
/** Stored as sent (the user's tool arguments are evidence); exports redact them. */
const BODY_SECRETS = ['ak-BBBB2222secret', 'pw-GGGG7777secret', 'meta-CCCC3333secret', 'oauth-DDDD4444secret'];
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEiLCJleHAiOjk5OTk5OTk5OTl9.c2lnbmF0dXJlLXNlY3JldA';
const ALL = [...CAPTURE_REDACTED, ...BODY_SECRETS, JWT];

let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  app = await startTestMcpscope();
  client = await connectClient(app.mcpUrl, { headers: { authorization: `Bearer ${CAPTURE_REDACTED[0]}`, cookie: `sid=${CAPTURE_REDACTED[1]}` } });
  await client.callTool({
    name: 'suggest_gifts',
    arguments: {
      occasion: 'birthday',
      budget: 60,
      recipient: 'Ada-the-recipient',
      api_key: BODY_SECRETS[0],
      login: { user: 'ada', password: BODY_SECRETS[1], oauth: { client_secret: CAPTURE_REDACTED[2] } },
      note: `token ${JWT} attached`,
      token_request: { grant_type: 'authorization_code', code: BODY_SECRETS[3], code_verifier: CAPTURE_REDACTED[3] },
    },
    _meta: { 'com.example/credentials': BODY_SECRETS[2] },
  }).catch(() => undefined);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'cheap' } }).catch(() => undefined);
  await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 } }, undefined, { onprogress: () => {} });
  await fetch(`${app.mcpUrl}?access_token=${CAPTURE_REDACTED[4]}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":"x","method":"ping"}' });
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
    expect(leaked(raw, [...BODY_SECRETS, JWT])).toEqual([...BODY_SECRETS, JWT]);
    // Credential headers and OAuth secret keys never reach the store, so not even an unredacted export has them.
    expect(leaked(raw, CAPTURE_REDACTED)).toEqual([]);
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
    expect(rules).toEqual(expect.arrayContaining(['key api_key', 'key password', 'key code (OAuth)', '_meta com.example/credentials', 'jwt']));
    // The query's access_token was redacted at capture: the export has nothing left to redact there.
    expect(rules).not.toContain('query access_token');
  });

  it('keeps the marker capture left in a URL, with the length it records', async () => {
    const marker = `access_token=${encodeURIComponent(`[redacted] (${CAPTURE_REDACTED[4]!.length} chars)`)}`;
    const stored = await text('/api/export?format=jsonl&unredacted=1');
    expect(stored).toContain(marker);
    for (const format of ['jsonl', 'har']) expect(await text(`/api/export?format=${format}`)).toContain(marker);
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
    const bodies = jsonlFrameLines(out).map((l) => l.raw);
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
