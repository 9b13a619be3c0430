// The key that salts credential fingerprints is kept beside a capture file (`<db>.key`,
// owner-only), never inside it: with the key in the file, its fingerprints let anyone holding the
// file check guessed credentials (a Basic-auth password against a word list) offline.
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintKeyFileOf } from '../src/compose/fingerprint-key.js';
import { MIGRATIONS } from '../src/capture/migrations.js';
import { openSqlite } from '../src/capture/sqlite.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { sharedUpstream } from './support/proxy-fixture.js';
import { startFaultyUpstream } from './reliability/fixtures/faulty-upstream.js';
import { framesOfCall, MCP_HEADERS, post, rpcId, toolCall } from './reliability/harness.js';

const shared = sharedUpstream(startFaultyUpstream);
const freshDb = () => join(mkdtempSync(join(tmpdir(), 'mcpscope-fpkey-')), 'capture.db');
const BASIC = `Basic ${Buffer.from('ada:correct-horse-battery').toString('base64')}`;

/** The bytes of the capture file and its WAL / journal, whichever exist. */
const onDisk = (db: string) => Buffer.concat([db, `${db}-wal`, `${db}-journal`].filter(existsSync).map((f) => readFileSync(f)));

function tablesOf(db: string): string[] {
  const sqlite = openSqlite(db, { readonly: true });
  try {
    return (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
  } finally {
    sqlite.close();
  }
}

/** Sends one tools/call with Basic auth and returns the fingerprint mcpscope recorded for it. */
async function captureWithBasicAuth(db: string): Promise<string | undefined> {
  const app = await startTestMcpscope({ db, target: shared.upstream.url });
  try {
    const id = rpcId();
    await (await post(app.mcpUrl, toolCall(id, 'echo'), { headers: { ...MCP_HEADERS, authorization: BASIC } })).text();
    const { frames } = await framesOfCall(app, id, 2);
    return frames.find((f) => f.direction === 'c2s')?.http?.credential;
  } finally {
    await app.close();
  }
}

describe('the credential-fingerprint key', () => {
  it('lives beside the capture file, owner-only; the file holds neither the key nor a table for it', async () => {
    const db = freshDb();
    const fingerprint = await captureWithBasicAuth(db);
    const keyFile = fingerprintKeyFileOf(db);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // The recorded fingerprint is the HMAC under the key outside the file...
    expect(fingerprint).toBe(createHmac('sha256', key).update(BASIC).digest('base64url').slice(0, 16));
    // ...and nothing of that key is in the file or its WAL, so a guess cannot be checked from the file alone.
    expect(onDisk(db).includes(Buffer.from(key))).toBe(false);
    expect(onDisk(db).includes(Buffer.from(key, 'hex'))).toBe(false);
    expect(tablesOf(db)).not.toContain('capture_keys');
    // The same key after a restart: the same credential keeps the same fingerprint.
    expect(await captureWithBasicAuth(db)).toBe(fingerprint);
  });

  it('is taken out of a capture file that stored it, and its bytes do not stay behind', async () => {
    const db = freshDb();
    const legacyKey = 'a1b2c3d4'.repeat(8);
    const sqlite = openSqlite(db);
    sqlite.pragma('journal_mode = WAL');
    for (const [version, sql] of MIGRATIONS.slice(0, 9).entries()) {
      sqlite.exec(sql);
      sqlite.pragma(`user_version = ${version + 1}`);
    }
    sqlite.prepare("INSERT INTO capture_keys (name, value) VALUES ('credential-fingerprint', ?)").run(legacyKey);
    sqlite.close();
    expect(onDisk(db).includes(Buffer.from(legacyKey))).toBe(true);

    const fingerprint = await captureWithBasicAuth(db);
    expect(tablesOf(db)).not.toContain('capture_keys');
    expect(onDisk(db).includes(Buffer.from(legacyKey))).toBe(false);
    expect(fingerprint).not.toBe(createHmac('sha256', legacyKey).update(BASIC).digest('base64url').slice(0, 16));
  });

  it('is refused when the key file is a symbolic link', async () => {
    const db = freshDb();
    const elsewhere = `${db}.elsewhere`;
    writeFileSync(elsewhere, `${'0'.repeat(64)}\n`, { mode: 0o600 });
    symlinkSync(elsewhere, fingerprintKeyFileOf(db));
    await expect(startTestMcpscope({ db, target: shared.upstream.url })).rejects.toThrow(/credential-fingerprint key file .* is a symbolic link.*Remove it/);
  });
});
