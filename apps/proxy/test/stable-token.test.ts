// A capture file keeps its dashboard token across restarts (kept beside it, owner-only), so a
// dashboard tab left open through a restart keeps working; --token still wins.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenFileOf } from '../src/compose/stable-token.js';
import { startTestMcpscope } from './support/mcpscope.js';

const freshDb = () => join(mkdtempSync(join(tmpdir(), 'mcpscope-token-')), 'capture.db');

async function tokenOf(db: string, token?: string): Promise<string> {
  const app = await startTestMcpscope({ db, ...(token ? { token } : {}) });
  const seen = app.token;
  // The token works on the API, not only in the banner.
  expect((await fetch(`${app.dashboardUrl}/api/info`, { headers: { authorization: `Bearer ${seen}` } })).status).toBe(200);
  await app.close();
  return seen;
}

describe('the dashboard token of a capture file', () => {
  it('is the same after a restart, and stored beside the file for its owner only', async () => {
    const db = freshDb();
    const first = await tokenOf(db);
    expect(await tokenOf(db)).toBe(first);
    expect(readFileSync(tokenFileOf(db), 'utf8').trim()).toBe(first);
    expect(statSync(tokenFileOf(db)).mode & 0o777).toBe(0o600);
  });

  it('differs between capture files, and --token overrides it without touching the file', async () => {
    const db = freshDb();
    const kept = await tokenOf(db);
    expect(await tokenOf(freshDb())).not.toBe(kept);
    expect(await tokenOf(db, 'given-token-given-token')).toBe('given-token-given-token');
    expect(await tokenOf(db)).toBe(kept);
  });

  it('is replaced when others could read it or it holds no usable token', async () => {
    const db = freshDb();
    const kept = await tokenOf(db);
    chmodSync(tokenFileOf(db), 0o644);
    const replaced = await tokenOf(db);
    expect(replaced).not.toBe(kept);
    expect(statSync(tokenFileOf(db)).mode & 0o777).toBe(0o600);
    writeFileSync(tokenFileOf(db), 'short\n', { mode: 0o600 });
    expect(await tokenOf(db)).not.toBe('short');
  });

  it('is fresh on every launch of an in-memory capture', async () => {
    expect(await tokenOf(':memory:')).not.toBe(await tokenOf(':memory:'));
  });
});
