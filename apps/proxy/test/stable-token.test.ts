// A capture file keeps its dashboard token across restarts (kept beside it, owner-only), so a
// dashboard tab left open through a restart keeps working; --token still wins.
import { chmodSync, chownSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('is refused, never adopted or replaced, when others could read it; replaced when it holds no usable token', async () => {
    const db = freshDb();
    const kept = await tokenOf(db);
    chmodSync(tokenFileOf(db), 0o644);
    await expect(startTestMcpscope({ db })).rejects.toThrow(/can be read or written by others.*Remove it.*--token/);
    expect(readFileSync(tokenFileOf(db), 'utf8').trim()).toBe(kept);
    chmodSync(tokenFileOf(db), 0o600);
    writeFileSync(tokenFileOf(db), 'short\n', { mode: 0o600 });
    expect(await tokenOf(db)).not.toBe('short');
  });

  it('is refused when it is a symbolic link (the file it points to is neither read nor written)', async () => {
    const db = freshDb();
    const elsewhere = `${db}.elsewhere`;
    writeFileSync(elsewhere, 'planted-token-planted-token-planted-token\n', { mode: 0o600 });
    symlinkSync(elsewhere, tokenFileOf(db));
    await expect(startTestMcpscope({ db })).rejects.toThrow(/is a symbolic link.*Remove it.*--token/);
    expect(readFileSync(elsewhere, 'utf8')).toBe('planted-token-planted-token-planted-token\n');
    // --token never reads the file.
    expect(await tokenOf(db, 'given-token-given-token')).toBe('given-token-given-token');
  });

  it.runIf(process.getuid?.() === 0)('is refused when another user owns it', async () => {
    const db = freshDb();
    writeFileSync(tokenFileOf(db), 'someone-elses-token-someone-elses-token\n', { mode: 0o600 });
    chownSync(tokenFileOf(db), 4242, 4242);
    await expect(startTestMcpscope({ db })).rejects.toThrow(/belongs to another user \(uid 4242/);
  });

  it('is written through a fresh temporary file: a symlink planted at a predictable temporary name is not followed', async () => {
    const db = freshDb();
    const victim = `${db}.victim`;
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, `${tokenFileOf(db)}.${process.pid}.tmp`);
    const token = await tokenOf(db);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(readFileSync(tokenFileOf(db), 'utf8').trim()).toBe(token);
    expect(statSync(tokenFileOf(db)).mode & 0o777).toBe(0o600);
  });

  it('is fresh on every launch of an in-memory capture', async () => {
    expect(await tokenOf(':memory:')).not.toBe(await tokenOf(':memory:'));
  });
});
