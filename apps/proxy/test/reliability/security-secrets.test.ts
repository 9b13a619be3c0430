// Secrets that travel through the tap never reach the capture file: Authorization, Cookie,
// X-Api-Key, Proxy-Authorization from the client and Set-Cookie from the server are redacted
// before storage. Checked where it matters: the bytes of the SQLite file and its WAL.
import { describe, expect, it } from 'vitest';
import { startMcpscopeProcess } from '../support/mcpscope.js';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { sharedUpstream } from '../support/proxy-fixture.js';
import { SECRETS, secretsOnDisk } from './secrets.js';
import { framesOfCall, MCP_HEADERS, post, rpcId, tempDb, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('60-security-secrets', 'Security: secrets');
const shared = sharedUpstream(startFaultyUpstream);

describe('secrets', () => {
  it('a bearer token, cookies and API keys sent through the tap are not in the .db or -wal file', async () => {
    const row = report.row('Authorization: Bearer, Cookie, X-Api-Key, Proxy-Authorization on a request and Set-Cookie on its answer, through the tap', 'the upstream receives them unchanged; the capture records that they were sent (redacted marker) but their values are in neither the .db nor the -wal file');
    const db = tempDb();
    const app = await startMcpscopeProcess(['--target', shared.upstream.url, '--db', db], { from: 'build' });
    try {
      const id = rpcId();
      const res = await post(app.mcpUrl, toolCall(id, 'set-cookie'), {
        headers: { ...MCP_HEADERS, authorization: `Bearer ${SECRETS.bearer}`, cookie: `sid=${SECRETS.cookie}`, 'x-api-key': SECRETS.apiKey, 'proxy-authorization': `Basic ${SECRETS.proxy}` },
      });
      const setCookie = res.headers.get('set-cookie');
      await res.text();
      const { frames } = await framesOfCall(app, id, 2);
      const requestHeaders = frames.find((f) => f.direction === 'c2s')?.http?.requestHeaders ?? {};
      const onDisk = secretsOnDisk(db, Object.values(SECRETS));
      row.observed(`client got Set-Cookie ${setCookie?.includes(SECRETS.setCookie) ? 'unchanged' : 'CHANGED'}; recorded authorization header: "${requestHeaders.authorization}"; secrets found on disk: ${onDisk.length ? onDisk.join(', ') : 'none'}`);
      expect(setCookie).toContain(SECRETS.setCookie);
      expect(requestHeaders.authorization).toMatch(/^Bearer /);
      expect(requestHeaders.authorization).not.toContain(SECRETS.bearer);
      expect(onDisk).toEqual([]);
    } finally {
      await app.stop();
    }
  });
});
