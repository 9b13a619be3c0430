// Credentials that go through the tap never reach the disk: the capture file and its WAL are
// grepped byte for byte for every secret a client sent.
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { tempDbFile } from './store-helpers.js';
import { redactBodySecrets } from '../src/redaction/redact-secrets.js';

const SECRETS = {
  bearer: 'tok_BEARER_7f3a9c1e5b2d4a6f8e0c',
  cookie: 'sid_COOKIE_2b4d6f8a0c1e3a5b7d9f',
  apiKey: 'key_APIKEY_9e8d7c6b5a4f3e2d1c0b',
  accessToken: 'at_ACCESS_1a2b3c4d5e6f7a8b9c0d',
  refreshToken: 'rt_REFRESH_0d9c8b7a6f5e4d3c2b1a',
  oauthCode: 'code_OAUTH_5f4e3d2c1b0a9f8e7d6c',
  verifier: 'ver_PKCE_6c7d8e9f0a1b2c3d4e5f',
  clientSecret: 'cs_CLIENT_3e4f5a6b7c8d9e0f1a2b',
  // A browser-based client's page URL, sent as the Referer: the MCP Inspector keeps its proxy's
  // session token in the query of the page it runs on.
  refererToken: 'rf_REFERER_8a7b6c5d4e3f2a1b0c9d',
};

let app: Mcpscope | undefined;
afterAll(() => app?.close());

function fileText(path: string): string {
  return existsSync(path) ? readFileSync(path).toString('latin1') : '';
}

describe('secrets at rest', () => {
  it('keeps every credential out of the capture file and its WAL, and MCP bodies otherwise exact', async () => {
    const db = tempDbFile();
    app = await startTestMcpscope({ db });
    const client = await connectClient(app.mcpUrl, {
      headers: {
        authorization: `Bearer ${SECRETS.bearer}`,
        cookie: `sid=${SECRETS.cookie}`,
        'x-api-key': SECRETS.apiKey,
        referer: `http://localhost:6274/?MCP_PROXY_AUTH_TOKEN=${SECRETS.refererToken}&transport=streamable-http`,
      },
    });
    // An MCP frame with OAuth fields as JSON keys, and a tool argument called `code` that must stay.
    await client
      .callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, access_token: SECRETS.accessToken, refresh_token: SECRETS.refreshToken, code: 'print(1)' } })
      .catch(() => {});
    // Bodies that are not JSON-RPC are read as OAuth traffic: form fields and `code` too.
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json, text/event-stream' };
    await fetch(app.mcpUrl, { method: 'POST', headers, body: `grant_type=authorization_code&code=${SECRETS.oauthCode}&code_verifier=${SECRETS.verifier}&client_secret=${SECRETS.clientSecret}` });
    await client.close();
    await settled(app);

    const onDisk = () => fileText(db) + fileText(`${db}-wal`) + fileText(`${db}-shm`) + fileText(`${db}-journal`);
    const check = () => {
      const bytes = onDisk();
      expect(bytes.length).toBeGreaterThan(0);
      for (const [name, secret] of Object.entries(SECRETS)) expect(bytes.includes(secret), `${name} is on disk`).toBe(false);
    };
    check(); // while running: the frames sit in the WAL
    const frames = app.store.framesAfter(0, 1000);
    const call = frames.find((f) => f.raw.includes('"suggest_gifts"') && f.direction === 'c2s')!;
    expect(call.raw).toContain('"code":"print(1)"');
    expect(call.raw).toMatch(/"access_token":"\[redacted\] \(\d+ chars\)"/);
    expect(call.http?.requestHeaders?.authorization).toMatch(/^Bearer \[redacted\]/);
    // The Referer keeps its page and its other parameters; only the token's value goes.
    expect(call.http?.requestHeaders?.referer).toMatch(/^http:\/\/localhost:6274\/\?MCP_PROXY_AUTH_TOKEN=%5Bredacted%5D.*&transport=streamable-http$/);
    await app.close();
    app = undefined;
    check(); // after shutdown: checkpointed into the main file
  });
});

describe('redactBodySecrets', () => {
  it('changes only secret values and leaves every other byte of a frame as sent', () => {
    const mcp = '{"jsonrpc":"2.0","id":1,"result":{"access_token" : "abc\\"def","code":-32602,"nested":{"client_secret":"s"}}}';
    expect(redactBodySecrets(mcp, true)).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"access_token" : "[redacted] (8 chars)","code":-32602,"nested":{"client_secret":"[redacted] (1 chars)"}}}',
    );
    const plain = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"code":"print(1)"}}}';
    expect(redactBodySecrets(plain, true)).toBe(plain);
    expect(redactBodySecrets('{"code":"xyz","state":"s"}', false)).toBe('{"code":"[redacted] (3 chars)","state":"s"}');
    expect(redactBodySecrets('code=abc&state=s&code_verifier=v', false)).toBe(
      `code=${encodeURIComponent('[redacted] (3 chars)')}&state=s&code_verifier=${encodeURIComponent('[redacted] (1 chars)')}`,
    );
  });
});

// Issue 22, item 4: the README says API keys are redacted; `?api_key=` in the URL and the
// per-product key headers (X-Goog-Api-Key, Private-Token, X-Access-Token) were stored raw and
// survived the default exports. One registry of secret names now serves capture and export.
describe('one registry of secret names, at capture and at export', () => {
  const KEYS = {
    query: 'qk_APIKEY_QUERY_4c5d6e7f8a9b0c1d',
    goog: 'AIzaSy_GOOG_0a1b2c3d4e5f6a7b8c9d',
    gitlab: 'glpat_PRIVATE_9f8e7d6c5b4a3f2e1d',
    access: 'xat_ACCESS_1b2c3d4e5f6a7b8c9d0e',
    shaped: 'sh_SHAPED_5e6f7a8b9c0d1e2f3a4b',
  };

  it('keeps them out of the capture file and of the default HAR, JSONL and curl exports; the data is private (0700 directory, 0600 files)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'mcpscope-private-')), 'mcpscope');
    const db = join(dataDir, 'capture.db');
    const local = await startTestMcpscope({ db });
    try {
      const client = await connectClient(`${local.mcpUrl}?api_key=${KEYS.query}&region=eu`, {
        headers: { 'X-Goog-Api-Key': KEYS.goog, 'Private-Token': KEYS.gitlab, 'X-Access-Token': KEYS.access, 'X-Shopify-Storefront-Access-Token': KEYS.shaped },
      });
      await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } });
      await client.close();
      await settled(local);
      const call = local.store.framesAfter(0, 1000).find((f) => f.raw.includes('"suggest_gifts"') && f.direction === 'c2s')!;
      expect(call.http!.path).toMatch(/\?api_key=%5Bredacted%5D.*&region=eu$/);
      expect(call.http!.requestHeaders).toMatchObject({ 'x-goog-api-key': expect.stringMatching(/^\[redacted\]/), 'private-token': expect.stringMatching(/^\[redacted\]/), 'x-access-token': expect.stringMatching(/^\[redacted\]/) });

      const auth = { authorization: `Bearer ${local.token}` };
      const exchange = local.store.exchanges(100).find((e) => e.method === 'tools/call')!;
      const exports = await Promise.all(['jsonl', 'har', `curl&exchange=${exchange.id}`].map(async (f) => (await fetch(`${local.dashboardUrl}/api/export?format=${f}`, { headers: auth })).text()));
      const onDisk = fileText(db) + fileText(`${db}-wal`);
      for (const [name, key] of Object.entries(KEYS)) {
        expect(onDisk.includes(key), `${name} is on disk`).toBe(false);
        exports.forEach((text, i) => expect(text.includes(key), `${name} in export ${i}`).toBe(false));
      }

      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      expect(mode(dataDir)).toBe('700');
      for (const file of [db, `${db}-wal`, `${db}-shm`, `${db}.lock`]) expect(mode(file), file).toBe('600');
    } finally {
      await local.close();
    }
  });
});
