// Issue 22, item 1: a web page from anywhere must not drive the MCP server behind a loopback tap.
// A sandboxed iframe (`sandbox="allow-scripts"`, no `allow-same-origin`) has an opaque origin, so
// Chromium sends `Origin: null`; before the fix the tap let that through and answered
// `access-control-allow-origin: null`, and a page served as http://evil.test read
// server-everything's environment through its get-env tool (the CVE-2025-49596 class: with a
// shell or filesystem server behind --stdio, that is code execution or file read).
//
// The page here is Chromium's own: a real page at http://evil.test (served by Playwright's router,
// so no DNS is needed) framing a real sandboxed srcdoc iframe. Chromium's Local Network Access
// checks are switched off so that the tap's guard, not this browser's version, is what is tested:
// other browsers and older Chromiums have no such check.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { mcpscopeForTests, runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { writeReportSection, type ReportRow } from '../../apps/proxy/test/reliability/report-file.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
/** In the tap's environment, so in the spawned server's: what get-env would hand the page. */
const MARKER = 'e2e-tap-origin-SECRET-7d1f';

const proxy = mcpscopeForTests(['--stdio', `${process.execPath} ${EVERYTHING} stdio`], { TAP_ORIGIN_MARKER: MARKER });

const rows: ReportRow[] = [];
test.afterAll(() => writeReportSection('71-security-tap-origin', 'Security: web pages and the tap (Chromium)', rows));

test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests'] } });

interface Attempt {
  initStatus?: number;
  initError?: string;
  session?: string | null;
  callStatus?: number;
  callText?: string;
  blindInit?: string;
  blindCall?: string;
}

/**
 * What the attacker's iframe runs: initialize with fetch (a preflighted request, as an MCP client
 * sends it), then call get-env (with the session, if one was given) and read the answer. Then the same messages
 * as "simple" requests (text/plain, no-cors), which skip the preflight and cannot be read but
 * still reach the server unless the tap refuses them.
 */
function attackerScript(mcpUrl: string): string {
  return `(async () => {
  const url = ${JSON.stringify(mcpUrl)};
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil-page', version: '1' } } };
  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get-env', arguments: {} } };
  const out = {};
  try {
    const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(init) });
    out.initStatus = r.status;
    out.session = r.headers.get('mcp-session-id');
    await r.text();
    if (out.session) headers['mcp-session-id'] = out.session;
    headers['mcp-protocol-version'] = '2025-06-18';
    await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const c = await fetch(url, { method: 'POST', headers, body: JSON.stringify(call) });
    out.callStatus = c.status;
    out.callText = await c.text();
  } catch (e) {
    out.initError = String(e);
  }
  for (const [key, body] of [['blindInit', init], ['blindCall', call]]) {
    try {
      await fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
      out[key] = 'sent';
    } catch (e) {
      out[key] = String(e);
    }
  }
  parent.postMessage(out, '*');
})();`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Serves http://evil.test/ with the sandboxed iframe and returns what the iframe reported. */
async function attackFromEvilOrigin(page: Page, app: RunningMcpscope): Promise<Attempt> {
  const html = `<!doctype html><title>evil.test</title>
<script>window.addEventListener('message', (e) => { window.__attempt = e.data; });</script>
<iframe sandbox="allow-scripts" srcdoc="${attr(`<script>${attackerScript(app.mcpUrl)}</script>`)}"></iframe>`;
  await page.route('http://evil.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto('http://evil.test/');
  const handle = await page.waitForFunction(() => (globalThis as unknown as { __attempt?: unknown }).__attempt, undefined, { timeout: 30_000 });
  return (await handle.jsonValue()) as Attempt;
}

/** Frames the tap forwarded to the server (refused requests are door records, never frames). */
async function forwardedMethods(app: RunningMcpscope): Promise<string[]> {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token')!;
  const res = await fetch(`${app.dashboardUrl}/api/frames?limit=500`, { headers: { authorization: `Bearer ${token}` } });
  const page = (await res.json()) as { frames: { method?: string | null; direction?: string }[] };
  return page.frames.map((f) => f.method ?? '').filter(Boolean);
}

test('a sandboxed iframe on another origin cannot initialize or call a tool through the tap', async ({ page }) => {
  const row: ReportRow = {
    fault: 'a page at http://evil.test frames <iframe sandbox="allow-scripts" srcdoc> (Origin: null) that fetches initialize and tools/call get-env from the tap of a --stdio server-everything, then sends both again as no-cors text/plain',
    expected: 'the fetches fail in the browser (preflight 403, no access-control-allow-origin), the blind requests are refused by the tap: nothing reaches the server, the environment is never read',
    observed: '(the test stopped first)',
    result: 'FAIL',
  };
  rows.push(row);
  const attempt = await attackFromEvilOrigin(page, proxy.app);
  const forwarded = await forwardedMethods(proxy.app);
  row.observed = `iframe saw ${attempt.initError ?? `status ${attempt.initStatus}`}; get-env answer ${attempt.callText?.includes(MARKER) ? 'READ THE ENVIRONMENT' : 'never read'}; blind requests ${attempt.blindCall}; methods the server received: ${forwarded.length ? forwarded.join(', ') : 'none'}`;
  // The preflight is refused, so the browser never sends the request, and nothing is readable.
  expect(attempt.initError).toMatch(/Failed to fetch|TypeError/);
  expect(attempt.initStatus).toBeUndefined();
  expect(attempt.callText ?? '').not.toContain(MARKER);
  // The blind requests leave the browser (no-cors cannot be stopped there) but the tap refuses them.
  expect(attempt.blindCall).toBe('sent');
  await expect.poll(() => forwardedMethods(proxy.app)).toEqual([]);
  row.result = 'pass';
});

test('the tap says why, and never allows the null origin in CORS', async ({ request }) => {
  const row: ReportRow = { fault: 'OPTIONS and POST to the tap with Origin: null', expected: '403 both, no access-control-allow-origin, the answer names --allow-origin', observed: '(the test stopped first)', result: 'FAIL' };
  rows.push(row);
  const preflight = await request.fetch(proxy.app.mcpUrl, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
  expect(preflight.status()).toBe(403);
  expect(preflight.headers()['access-control-allow-origin']).toBeUndefined();
  const post = await request.post(proxy.app.mcpUrl, { headers: { origin: 'null', 'content-type': 'application/json' }, data: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } });
  expect(post.status()).toBe(403);
  expect(post.headers()['access-control-allow-origin']).toBeUndefined();
  const text = await post.text();
  row.observed = `preflight ${preflight.status()}, POST ${post.status()}, allow-origin ${post.headers()['access-control-allow-origin'] ?? 'absent'}: ${text.slice(0, 160)}`;
  expect(text).toContain('--allow-origin');
  row.result = 'pass';
});

test.describe('a tap bound to every interface (--host 0.0.0.0, as in a container)', () => {
  let wide: RunningMcpscope;
  test.beforeAll(async () => {
    wide = await runMcpscope(['--host', '0.0.0.0']);
  });
  test.afterAll(() => wide?.stop());

  test('still refuses a web page that calls it by a loopback name (plain CORS from http://evil.test)', async ({ page }) => {
    const row: ReportRow = { fault: 'mcpscope --host 0.0.0.0; a page at http://evil.test fetches initialize from the tap at its printed http://127.0.0.1:PORT/mcp', expected: 'the browser gets no answer it may read (403, no CORS); a client without a browser still connects', observed: '(the test stopped first)', result: 'FAIL' };
    rows.push(row);
    await page.route('http://evil.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>evil.test</title>' }));
    await page.goto('http://evil.test/');
    const seen = await page.evaluate(async (url) => {
      try {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } } }) });
        return `status ${r.status}: ${(await r.text()).slice(0, 80)}`;
      } catch (e) {
        return String(e);
      }
    }, wide.mcpUrl);
    const direct = await fetch(wide.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli', version: '1' } } }) });
    row.observed = `tap printed ${wide.mcpUrl}; the page saw ${seen}; a client without a browser got ${direct.status}`;
    expect(seen).toMatch(/Failed to fetch|TypeError/);
    expect(direct.status).toBe(200);
    row.result = 'pass';
  });
});
