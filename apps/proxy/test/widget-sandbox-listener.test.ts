// The widget sandbox listener: its own port, one page, the widget's CSP and the dashboard as the
// only frame ancestor set as headers, and nothing for any other Host, path or embedder.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startTestMcpscope } from './support/mcpscope.js';

/** A raw GET with any Host header (fetch would not let a test lie about Host). */
function get(port: number, path: string, host: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let app: Mcpscope;
let webRoot: string;
beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'mcpscope-web-'));
  mkdirSync(join(webRoot, 'sandbox'));
  writeFileSync(join(webRoot, 'sandbox', 'sandbox.js'), 'console.log("</script> sandbox")');
  app = await startTestMcpscope({ webRoot });
});
afterAll(() => app?.close());

describe('the widget sandbox listener', () => {
  const dashboard = () => new URL(app.dashboardUrl).origin;
  const page = (query: string) => `/sandbox?host=${encodeURIComponent(dashboard())}${query}`;

  it('listens on its own port and serves the sandbox with the widget’s CSP and the dashboard as the only embedder', async () => {
    expect(app.widgetPort).not.toBe(Number(new URL(app.dashboardUrl).port));
    const csp = JSON.stringify({ resourceDomains: ['https://cdn.example.com'], connectDomains: ['https://api.example.com'] });
    const res = await get(app.widgetPort, page(`&csp=${encodeURIComponent(csp)}`), `w-abc123.localhost:${app.widgetPort}`);
    expect(res.status).toBe(200);
    const policies = String(res.headers['content-security-policy']).split(/,\s*/);
    expect(policies[0]).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: https://cdn.example.com");
    expect(policies[0]).toContain("connect-src 'self' https://api.example.com");
    expect(policies[0]).toContain("frame-src 'none'");
    expect(policies[1]).toBe(`frame-ancestors ${dashboard()}`);
    expect(res.headers['cache-control']).toBe('no-store');
    // The script is inlined, and cannot close its own <script> early.
    expect(res.body).toContain('<script type="module">console.log("<\\/script> sandbox")</script>');
  });

  it('refuses other embedders, other Host names, other paths and a CSP that is not lists of strings', async () => {
    const host = `w-abc123.localhost:${app.widgetPort}`;
    expect((await get(app.widgetPort, '/sandbox?host=http%3A%2F%2Fevil.example', host)).status).toBe(403);
    expect((await get(app.widgetPort, page(''), `evil.example:${app.widgetPort}`)).status).toBe(403);
    expect((await get(app.widgetPort, page(''), `w-abc.localhost.evil.example:${app.widgetPort}`)).status).toBe(403);
    expect((await get(app.widgetPort, '/api/exchanges', host)).status).toBe(404);
    expect((await get(app.widgetPort, `/?token=${app.token}`, host)).status).toBe(404);
    expect((await get(app.widgetPort, page('&csp=%7B%22resourceDomains%22%3A5%7D'), host)).status).toBe(400);
  });

  it('keeps a hostile CSP entry from adding directives or keywords', async () => {
    const csp = JSON.stringify({ resourceDomains: ["https://a.example; script-src *", "'unsafe-hashes'", 'https://ok.example'] });
    const res = await get(app.widgetPort, page(`&csp=${encodeURIComponent(csp)}`), `w-x.localhost:${app.widgetPort}`);
    const policy = String(res.headers['content-security-policy']).split(/,\s*/)[0]!;
    expect(policy).not.toContain('script-src *');
    expect(policy).not.toContain('unsafe-hashes');
    expect(policy).toContain('https://ok.example');
  });

  it('the dashboard may frame only the sandbox port', async () => {
    const res = await fetch(app.dashboardLoginUrl);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain(`frame-src http://*.localhost:${app.widgetPort}`);
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
