// OpenID Connect `response_mode=form_post`: the authorization server answers with an HTML page
// whose hidden inputs hold the code and tokens, and the browser posts them to the client's
// redirect URI as a form. Through the tap, both bodies are stored with those values redacted, and
// the default HAR export holds none of them.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { Redactor } from '../src/redaction/export-redaction.js';
import { redactBodySecrets } from '../src/redaction/redact-secrets.js';
import { settled } from './helpers.js';
import { apiFetch } from './support/api.js';
import { allRequests } from './support/door-flows.js';
import { listenOnLoopback, type Listening } from './support/loopback.js';
import { startTestMcpscope } from './support/mcpscope.js';

const SECRETS = {
  code: 'SplxlOBeZQQYbYS6WxSbIA_fp7Kq2Lm',
  idToken: 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIiwic3ViIjoiYWRhIn0.ZmFrZV9zaWduYXR1cmVfb2ZfaWRfdG9rZW4',
  accessToken: 'at_FORMPOST_8c7b6a5f4e3d2c1b0a9f',
};
const STATE = 'af0ifjsldkj';

function formPostPage(callback: string): string {
  return `<!DOCTYPE html>
<html><head><title>Submit This Form</title></head>
<body onload="javascript:document.forms[0].submit()">
  <form method="post" action="${callback}">
    <input type="hidden" name="state" value="${STATE}"/>
    <input type="hidden" name="code" value="${SECRETS.code}"/>
    <input type='hidden' value='${SECRETS.idToken}' name='id_token'/>
    <INPUT TYPE="hidden" NAME="access_token" VALUE=${SECRETS.accessToken}>
  </form>
</body></html>`;
}

describe('OIDC form_post through the tap', () => {
  let upstream: Listening;
  let app: Mcpscope;
  const callbackBodies: string[] = [];

  beforeAll(async () => {
    upstream = await listenOnLoopback(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const path = new URL(req.url ?? '/', 'http://x').pathname;
          if (path === '/authorize') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(formPostPage(`http://${req.headers.host}/callback`));
          if (path === '/callback') {
            callbackBodies.push(Buffer.concat(chunks).toString('utf8'));
            return void res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
          }
          res.writeHead(404).end();
        });
      }),
    );
    app = await startTestMcpscope({ target: `${upstream.origin}/mcp` });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('stores the authorization page and the posted form with the code and tokens redacted, and the HAR holds none of them', async () => {
    const page = await (await fetch(`${app.tapUrl}/authorize?response_type=code%20id_token&response_mode=form_post&client_id=c1&state=${STATE}`)).text();
    expect(page).toContain(SECRETS.code); // the browser gets the page as sent
    const form = new URLSearchParams({ state: STATE, code: SECRETS.code, id_token: SECRETS.idToken, access_token: SECRETS.accessToken }).toString();
    await (await fetch(`${app.tapUrl}/callback`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form })).text();
    expect(callbackBodies).toEqual([form]);
    await settled(app);

    const records = await allRequests(app);
    const authorize = records.find((r) => r.path.startsWith('/authorize'))!;
    const callback = records.find((r) => r.path === '/callback')!;
    expect(authorize.responseBody?.text).toContain(`<input type="hidden" name="code" value="[redacted] (${SECRETS.code.length} chars)"/>`);
    expect(authorize.responseBody?.text).toContain(`name="state" value="${STATE}"`);
    expect(callback.requestBody?.text).toMatch(/^state=af0ifjsldkj&code=%5Bredacted%5D/);

    const har = await (await apiFetch(app, '/api/export?format=har')).text();
    expect(har).toContain('/authorize');
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(JSON.stringify(records).includes(secret), `${name} stored`).toBe(false);
      expect(har.includes(secret), `${name} in the HAR`).toBe(false);
    }
  });
});

describe('form_post pages in bodies', () => {
  const page = formPostPage('https://client.example/callback');

  it('capture redaction keeps every byte of the page but the secret values', () => {
    const out = redactBodySecrets(page, false);
    for (const secret of Object.values(SECRETS)) expect(out).not.toContain(secret);
    expect(out.replace(/\[redacted\] \(\d+ chars\)/g, 'X')).toBe(page.replace(SECRETS.code, 'X').replace(SECRETS.idToken, 'X').replace(SECRETS.accessToken, '"X"'));
  });

  it('an export redacts a page stored in clear (an imported HAR)', () => {
    const redactor = new Redactor({ enabled: true });
    const out = redactor.body(page);
    for (const secret of Object.values(SECRETS)) expect(out).not.toContain(secret);
    expect(out).toContain(`value="${STATE}"`);
    expect(redactor.report().hits.map((h) => h.rule)).toContain('OAuth field in a form or HTML body');
  });
});
