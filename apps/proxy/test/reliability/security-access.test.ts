// Who can reach the capture: every dashboard route, the WebSocket and the page itself refuse a
// missing or wrong token (401) and a foreign Host or Origin (403) — the checks whose absence gave
// MCP Inspector remote code execution (CVE-2025-49596). The tap serves none of it, and a wildcard
// dashboard bind is refused unless the user says they mean it.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { spawnMcpscope } from '../support/mcpscope.js';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('50-security-access', 'Security: access to the dashboard');
const proxy = proxiedUpstream(startFaultyUpstream);

/** Every route of DESIGN.md's contract, existing or not yet, plus one that exists nowhere. */
const ROUTES: [method: string, path: string][] = [
  ['GET', '/api/sessions'],
  ['GET', '/api/frames?after=0&limit=10'],
  ['GET', '/api/exchanges?limit=10'],
  ['GET', '/api/exchanges/1'],
  ['POST', '/api/replay'],
  ['GET', '/api/export?format=jsonl'],
  ['GET', '/api/export?format=har'],
  ['POST', '/api/import'],
  ['GET', '/api/no-such-route'],
];

/** A raw request, so that Host can be anything (fetch will not forge it). */
function raw(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { port } = new URL(proxy.app.dashboardUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

function wsStatus(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(proxy.app.dashboardUrl.replace('http', 'ws') + path, { headers });
    ws.on('open', () => (ws.close(), resolve(101)));
    ws.on('unexpected-response', (_req, res) => (res.resume(), resolve(res.statusCode ?? 0)));
    ws.on('error', () => resolve(-1));
  });
}

describe('dashboard access', () => {
  const host = () => new URL(proxy.app.dashboardUrl).host;
  const json = { 'content-type': 'application/json' };

  it('every API route refuses a missing or wrong token with 401', async () => {
    const row = report.row(`${ROUTES.length} API routes (every contract route, GET and POST) without a token, with a wrong Bearer token, with a wrong ?token=`, '401 every time, and the body leaks no data');
    const statuses: string[] = [];
    for (const [method, path] of ROUTES) {
      const sep = path.includes('?') ? '&' : '?';
      const none = await raw(method, path, { host: host(), ...json });
      const wrong = await raw(method, path, { host: host(), authorization: 'Bearer not-the-token-not-the-token', ...json });
      const wrongQuery = await raw(method, `${path}${sep}token=not-the-token-not-the-token`, { host: host(), ...json });
      statuses.push(`${method} ${path.split('?')[0]}: ${none.status}/${wrong.status}/${wrongQuery.status}`);
      for (const r of [none, wrong, wrongQuery]) {
        expect.soft(r.status, `${method} ${path}`).toBe(401);
        expect.soft(r.body).not.toContain('jsonrpc');
      }
    }
    row.observed(statuses.join('; '));
  });

  it('every API route and the page refuse a foreign Host or Origin with 403, even with the right token', async () => {
    const row = report.row('the right token, but Host evil.example / 127.0.0.1.evil.example / localhost.evil (DNS rebinding), or Origin https://evil.example / null (cross-site, sandboxed iframe)', '403 on every API route and on the dashboard page');
    const auth = { authorization: `Bearer ${proxy.app.token}`, ...json };
    const { port } = new URL(proxy.app.dashboardUrl);
    const foreignHosts = [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil:${port}`, 'evil.example'];
    const foreignOrigins = ['https://evil.example', `http://evil.example:${port}`, 'null'];
    const seen = new Set<number>();
    for (const [method, path] of [...ROUTES, ['GET', '/'], ['GET', '/index.html']] as [string, string][]) {
      for (const h of foreignHosts) {
        const r = await raw(method, path, { ...auth, host: h });
        seen.add(r.status);
        expect.soft(r.status, `${method} ${path} Host ${h}`).toBe(403);
      }
      for (const o of foreignOrigins) {
        const r = await raw(method, path, { ...auth, host: host(), origin: o });
        seen.add(r.status);
        expect.soft(r.status, `${method} ${path} Origin ${o}`).toBe(403);
      }
    }
    row.observed(`statuses seen: ${[...seen].join(', ')} over ${(ROUTES.length + 2) * (foreignHosts.length + foreignOrigins.length)} requests`);
  });

  it('the WebSocket refuses a missing or wrong token (401) and a foreign Host or Origin (403)', async () => {
    const row = report.row('WebSocket /ws without a token, with a wrong token, with the token from a foreign Origin or Host', '401, 401, 403, 403; the right token from the dashboard origin connects');
    const t = encodeURIComponent(proxy.app.token);
    const results = {
      none: await wsStatus('/ws', {}),
      wrong: await wsStatus('/ws?token=not-the-token-not-the-token', {}),
      origin: await wsStatus(`/ws?token=${t}`, { origin: 'https://evil.example' }),
      host: await wsStatus(`/ws?token=${t}`, { host: 'evil.example' }),
      ok: await wsStatus(`/ws?token=${t}`, { origin: proxy.app.dashboardUrl }),
    };
    row.observed(JSON.stringify(results));
    expect(results).toEqual({ none: 401, wrong: 401, origin: 403, host: 403, ok: 101 });
  });

  it('the tap port serves no dashboard path: everything there goes to the upstream', async () => {
    const row = report.row('dashboard paths (/, /index.html, /api/*, /ws, /assets/) requested on the tap port, with the token', 'each is forwarded to the upstream (same status and body as asking the upstream directly); no token, no dashboard HTML');
    const upstreamOrigin = new URL(proxy.upstream.url).origin;
    const paths = ['/', '/index.html', '/api/health', '/api/exchanges', `/api/exchanges?token=${proxy.app.token}`, '/ws', '/assets/index.js'];
    const outcomes: string[] = [];
    for (const path of paths) {
      const viaTap = await fetch(proxy.app.tapUrl + path, { headers: { authorization: `Bearer ${proxy.app.token}` } });
      const direct = await fetch(upstreamOrigin + path);
      const [tapBody, directBody] = [await viaTap.text(), await direct.text()];
      outcomes.push(`${path.split('?')[0]} ${viaTap.status}${tapBody === directBody ? ' (= upstream)' : ' (DIFFERS)'}`);
      expect.soft(viaTap.status, path).toBe(direct.status);
      expect.soft(tapBody, path).toBe(directBody);
      expect.soft(tapBody).not.toContain(proxy.app.token);
    }
    row.observed(outcomes.join('; '));
  });

  it.each(['0.0.0.0', '::', '[::]', '0'])('a wildcard dashboard bind (--ui-host %s) is refused without --dangerously-expose-dashboard', async (addr) => {
    const row = report.row(`mcpscope --ui-host ${addr}`, 'refuses to start (exit 2) and says why; nothing listens');
    const cli = spawnMcpscope(['--no-open', '--ui-host', addr, '--port', '0', '--ui-port', '0', '--db', ':memory:'], { from: 'build' });
    const [code, output] = [await cli.exited, cli.output()];
    row.observed(`exit ${code}: ${output.split('\n')[0]!.slice(0, 100)}`);
    expect(code).toBe(2);
    expect(output).toContain('--dangerously-expose-dashboard');
  });
});
