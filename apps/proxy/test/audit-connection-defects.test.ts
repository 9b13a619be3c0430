/**
 * The readiness audit's connection checks against servers with one switch per defect: OAuth (the
 * SDK's auth helpers, with a flaw each), CORS for the widget's sandbox origin, and a tool-list
 * change. Each check fails (or warns) on its defect and passes on the fixed server, from a capture
 * of a host's traffic and from `mcpscope audit --target`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditReport, CheckResult } from '@mcpscope/protocol';

type Verdict = CheckResult['verdict'];
import { runAudit } from '../src/commands/audit.js';
import { auditCapture } from '../src/compose/audit-capture.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { freePort } from './support/free-port.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { runOAuthFlow } from './support/oauth-client.js';
import { startSdkOAuthServer, type OAuthFlaw } from './support/oauth-sdk-server.js';
import { startReadinessServer, useApp, widgetFetch, type ReadinessDefect } from './support/readiness-server.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-audit-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verdicts = (report: AuditReport, ids: readonly string[]): Record<string, Verdict> => Object.fromEntries(ids.map((id) => [id, report.checks.find((c) => c.id === id)!.verdict]));

/** The running capture's audit once every frame and door record is written. */
async function auditOf(app: Mcpscope): Promise<AuditReport> {
  await app.pipeline.whenWritten();
  app.pipeline.flush(true);
  return auditCapture(app.store, { submitting: false });
}

let reports = 0;
async function auditTarget(target: string): Promise<{ code: number; report: AuditReport }> {
  const sink = new PassThrough();
  sink.resume();
  const file = join(dir, `${++reports}.json`);
  const code = await runAudit(['--target', target, '--report', file], { stdout: sink as never, stderr: sink as never });
  return { code, report: JSON.parse(readFileSync(file, 'utf8')) as AuditReport };
}

const AUTH_CHECKS = ['auth-401-challenge', 'auth-resource-matches', 'auth-pkce-s256'] as const;
const PASSING = { 'auth-401-challenge': 'pass', 'auth-resource-matches': 'pass', 'auth-pkce-s256': 'pass' } as const;
// Each flaw of the SDK OAuth server and the one check it must fail; the others still pass.
const AUTH_CASES: [OAuthFlaw | 'clean', Record<(typeof AUTH_CHECKS)[number], Verdict>][] = [
  ['clean', PASSING],
  ['no-www-authenticate', { ...PASSING, 'auth-401-challenge': 'fail' }],
  ['no-s256', { ...PASSING, 'auth-pkce-s256': 'fail' }],
  ['wrong-resource', { ...PASSING, 'auth-resource-matches': 'fail' }],
];

describe('OAuth: each flaw fails its check, the fixed server passes', () => {
  for (const [flaw, expected] of AUTH_CASES) {
    it(`${flaw}, from a capture of the SDK client signing in through the tap`, async () => {
      const port = await freePort();
      // "localhost" stands in for a tunnel's host: the client knows the server only by this URL.
      const publicOrigin = `http://localhost:${port}`;
      const server = await startSdkOAuthServer({ publicOrigin, ...(flaw === 'clean' ? {} : { flaw }) });
      const app = await startTestMcpscope({ target: server.mcpUrl, port, publicUrl: publicOrigin });
      try {
        const run = await runOAuthFlow(app.publicMcpUrl!);
        await run.client?.close();
        expect(verdicts(await auditOf(app), AUTH_CHECKS)).toEqual(expected);
      } finally {
        await app.close();
        await server.close();
      }
    });

    it(`${flaw}, with mcpscope audit --target (it does the discovery a host does)`, async () => {
      const port = await freePort();
      const server = await startSdkOAuthServer({ publicOrigin: `http://127.0.0.1:${port}`, port, ...(flaw === 'clean' ? {} : { flaw }) });
      try {
        const { code, report } = await auditTarget(server.mcpUrl);
        expect(verdicts(report, AUTH_CHECKS)).toEqual(expected);
        expect(code).toBe(flaw === 'clean' ? 0 : 1);
      } finally {
        await server.close();
      }
    });
  }
});

describe("CORS for the widget's sandbox origin", () => {
  const PUBLIC_HOST = 'brave-otter.trycloudflare.com';
  const WIDGET_ORIGIN = 'https://forecast.web-sandbox.oaiusercontent.com';
  for (const [defects, expected] of [[[], 'pass'], [['no-cors'], 'fail']] as [ReadinessDefect[], Verdict][]) {
    it(`${defects[0] ?? 'clean'}: the server's own CORS is judged, not the tap's`, async () => {
      const server = await startReadinessServer(defects);
      const app = await startTestMcpscope({ target: server.url, publicUrl: `https://${PUBLIC_HOST}` });
      try {
        await useApp(app.mcpUrl);
        // Through the tap the widget is let in either way: the tap answers browsers with CORS.
        expect(await widgetFetch(new URL(app.mcpUrl).origin, PUBLIC_HOST, WIDGET_ORIGIN)).toBe(WIDGET_ORIGIN);
        const check = (await auditOf(app)).checks.find((c) => c.id === 'widget-origin-cors')!;
        expect(check.verdict).toBe(expected);
        if (expected === 'fail') {
          expect(check.findings[0]).toMatchObject({ hosts: ['chatgpt'], evidence: { path: 'upstreamCors.allowOrigin' } });
          expect(check.findings[0]!.message).toContain('with no Access-Control-Allow-Origin');
        }
      } finally {
        await app.close();
        await server.close();
      }
    });
  }
});

describe('a tool-list change the hosts never pick up', () => {
  for (const [defects, expected] of [[[], 'pass'], [['list-changed'], 'warn']] as [ReadinessDefect[], Verdict][]) {
    it(`${defects[0] ?? 'clean'}, from a capture and with --target`, async () => {
      const server = await startReadinessServer(defects);
      const app = await startTestMcpscope({ target: server.url });
      try {
        await useApp(app.mcpUrl);
        const captured = (await auditOf(app)).checks.find((c) => c.id === 'tools-list-changed')!;
        expect(captured.verdict).toBe(expected);
        const { report } = await auditTarget(server.url);
        const probed = report.checks.find((c) => c.id === 'tools-list-changed')!;
        expect(probed.verdict).toBe(expected);
        if (expected === 'warn') expect(probed.findings[0]!.hosts).toEqual(['chatgpt', 'claude-code']);
      } finally {
        await app.close();
        await server.close();
      }
    });
  }
});
