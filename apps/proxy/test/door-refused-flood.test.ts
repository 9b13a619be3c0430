// A web page can send refused requests as fast as the browser allows: the door counts and samples
// them per Host and Origin pair (door/refusal-tally.ts), so what the capture file holds for them
// stays bounded while the count stays exact and queryable.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_REFUSAL_SAMPLES, type DoorRecord } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import type { RefusalSummary } from '../src/api/routes/requests.js';
import { openSqlite } from '../src/capture/sqlite.js';
import { REFUSAL_PAIRS_LIMIT } from '../src/door/refusal-tally.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { apiGet } from './support/api.js';
import { eventually, tempDb } from './reliability/harness.js';

let app: Mcpscope;
let db: string;
beforeAll(async () => {
  db = tempDb();
  app = await startTestMcpscope({ db });
});
afterAll(() => app?.close());

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
afterAll(() => agent.destroy());

/** A POST as a browser page sends it: its own Origin, a long path and a body. */
function refusedPost(headers: Record<string, string>, path: string): Promise<number> {
  const url = new URL(app.tapUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { 'content-type': 'text/plain', referer: `https://evil.example${path}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_everything"}}');
  });
}

async function fire(count: number, headers: Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const n = next++;
        statuses.push(await refusedPost(headers, `/mcp?n=${n}&pad=${'p'.repeat(4000)}`));
      }
    }),
  );
  return statuses;
}

const refusals = async () => (await apiGet<{ refusals: RefusalSummary[] }>(app, '/api/requests/refused')).refusals;

function stored(): { records: number; bytes: number } {
  const reader = openSqlite(db, { readonly: true });
  try {
    return reader.prepare('SELECT COUNT(*) AS records, COALESCE(SUM(length(record)), 0) AS bytes FROM door_requests').get() as { records: number; bytes: number };
  } finally {
    reader.close();
  }
}

describe('refused requests at the door', () => {
  it('counts 5,000 refused requests from one page exactly, on one record of bounded size', async () => {
    const host = new URL(app.tapUrl).host;
    const statuses = await fire(5000, { host, origin: 'https://evil.example' });
    expect(statuses.filter((s) => s === 403)).toHaveLength(5000);

    const pair = await eventually(async () => (await refusals()).find((r) => r.origin === 'https://evil.example' && r.count === 5000), 'all 5,000 refusals counted');
    expect(pair.host).toBe(host);
    expect(pair.reason).toContain('--allow-origin https://evil.example');
    expect(pair.samples).toHaveLength(DOOR_REFUSAL_SAMPLES);
    expect(pair.samples.every((s) => s.method === 'POST' && s.path.length <= 512)).toBe(true);
    expect(pair.lastTs).toBeGreaterThanOrEqual(pair.firstTs);

    // The record the pair is counted on: the first request whole, the rest as a count and samples.
    const record = await apiGet<DoorRecord>(app, `/api/requests/${pair.requestId}`);
    expect(record).toMatchObject({ answer: 'refused', status: 403, end: 'complete', refusals: { count: 5000 } });
    expect(record.path).toContain('n=0&');

    // 5,000 requests of over 8 KB each (path and Referer) were 40 MB as records; one stays.
    const file = stored();
    expect(file.records).toBe(1);
    expect(file.bytes).toBeLessThan(64 * 1024);
  }, 120_000);

  it('keeps one record per Host and Origin pair, and counts pairs past the limit on one more', async () => {
    const host = new URL(app.tapUrl).host;
    await fire(3, { host: 'rebound.evil.example' });
    for (let n = 0; n < REFUSAL_PAIRS_LIMIT + 10; n++) await refusedPost({ host, origin: `https://page${n}.evil.example` }, '/mcp');
    const all = await eventually(async () => {
      const list = await refusals();
      return list.reduce((sum, r) => sum + r.count, 0) === 5000 + 3 + REFUSAL_PAIRS_LIMIT + 10 ? list : undefined;
    }, 'every refusal counted');
    expect(all.find((r) => r.host === 'rebound.evil.example')).toMatchObject({ count: 3 });
    expect(all.find((r) => r.host === 'rebound.evil.example')!.reason).toContain('--allow-host rebound.evil.example');
    expect(all).toHaveLength(REFUSAL_PAIRS_LIMIT + 1);
    expect(stored().records).toBe(REFUSAL_PAIRS_LIMIT + 1);
  });
});
