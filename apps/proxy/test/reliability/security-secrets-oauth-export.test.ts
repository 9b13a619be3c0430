// Secrets in OAuth bodies
// (access_token, refresh_token, code_verifier, client_secret) and in headers stay out of the capture
// file and out of every export format.
import { describe, expect, it } from 'vitest';
import { startMcpscopeProcess } from '../support/mcpscope.js';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { sharedUpstream } from '../support/proxy-fixture.js';
import { eventually, framesAfter, MCP_HEADERS, post, rpcId, tempDb, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';
import { SECRETS, secretsOnDisk } from './secrets.js';

const report = reliabilityReport('61-security-secrets-oauth-export', 'Security: secrets in OAuth bodies and exports');
const shared = sharedUpstream(startFaultyUpstream);
const OAUTH = ['SECRET-ACCESS-TOKEN-5b1f', 'SECRET-REFRESH-TOKEN-77c2', 'SECRET-VERIFIER-4d4d4d4d', 'SECRET-CLIENT-SECRET-9a9a'];

describe('secrets in OAuth bodies and exports', () => {
  it('never reach the database, the WAL, or a JSONL / HAR export', async () => {
    const row = report.row('an OAuth token exchange (code_verifier, client_secret → access_token, refresh_token) and a Bearer-authenticated tools/call through the tap, then GET /api/export as jsonl and har', 'the client gets the real tokens; none of the secrets is in the .db, the -wal, or either export');
    const db = tempDb();
    const app = await startMcpscopeProcess(['--target', shared.upstream.url, '--db', db], { from: 'build' });
    try {
      const token = await fetch(`${new URL(app.mcpUrl).origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=authorization_code&code=abc&code_verifier=${OAUTH[2]}&client_secret=${OAUTH[3]}`,
      });
      const tokenBody = await token.text();
      const id = rpcId();
      await (await post(app.mcpUrl, toolCall(id, 'echo', { text: 'exported' }), { headers: { ...MCP_HEADERS, authorization: `Bearer ${SECRETS.bearer}` } })).text();
      await eventually(async () => ((await framesAfter(app)).length >= 2 ? true : undefined), 'capture');
      const secrets = [...OAUTH, SECRETS.bearer];
      const exports: Record<string, string> = {};
      for (const format of ['jsonl', 'har']) {
        const res = await fetch(`${app.dashboardUrl}/api/export?format=${format}`, { headers: { authorization: `Bearer ${app.token}` } });
        exports[format] = `${res.status} ${await res.text()}`;
        // A real export, not the dashboard's HTML shell: it holds the call that was made.
        // (the frame's raw text sits JSON-escaped inside the export)
        expect(exports[format]).toMatch(new RegExp(`\\\\?"id\\\\?":${id}\\b`));
      }
      const onDisk = secretsOnDisk(db, secrets);
      const inExports = Object.entries(exports).flatMap(([f, text]) => secrets.filter((s) => text.includes(s)).map((s) => `${f}:${s}`));
      row.observed(`client got the access token: ${tokenBody.includes(OAUTH[0]!)}; on disk: ${onDisk.join(', ') || 'none'}; in exports: ${inExports.join(', ') || 'none'}; export statuses ${Object.values(exports).map((e) => e.split(' ')[0]).join('/')}`);
      expect(tokenBody).toContain(OAUTH[0]);
      expect(exports.jsonl!.startsWith('200')).toBe(true);
      expect(exports.har!.startsWith('200')).toBe(true);
      expect(onDisk).toEqual([]);
      expect(inExports).toEqual([]);
    } finally {
      await app.stop();
    }
  });
});
