// Capture files outlive versions of mcpscope: an old file is migrated forward in place (derived
// columns filled from what it holds), and a file from a newer mcpscope is refused, not damaged.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CaptureQuery } from '../src/capture/capture-query.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/capture/migrations.js';
import { InspectorError } from '../src/core/errors.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { warmDeriver } from '../src/capture/capture-engine.js';
import { parseFilter } from '@mcpscope/protocol';
import { tempDbFile } from './store-helpers.js';

describe('migrations', () => {
  it('brings a version-1 file forward, filling the new columns from the stored summaries', () => {
    const file = tempDbFile();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    const raw = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"suggest_gifts"}}';
    old.prepare("INSERT INTO frames VALUES (1, 1.5, 's', 'c2s', 'http-json', 'data', ?, NULL)").run(raw);
    const summary = { id: '1', sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', target: 'suggest_gifts', rpcId: 1, status: 'pending', startTs: 1.5, requestSeq: 1, frameSeqs: [1], size: raw.length, diagnostics: 0, updatedSeq: 1 };
    old.prepare("INSERT INTO exchanges VALUES ('1', 1, 's', 'pending', 'tools/call', 1, ?)").run(JSON.stringify(summary));
    old.close();

    const store = new CaptureStore(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.prepare('SELECT bytes, raw FROM frames').get()).toEqual({ bytes: Buffer.byteLength(raw), raw });
    const parsed = parseFilter('tool:suggest_gifts status:pending');
    expect(new CaptureQuery(store).exchanges(parsed.ok ? parsed.filter : null, 10).exchanges).toEqual([summary]);
    store.close();
  });

  it('keeps the replay links of a version-2 file (replay created their table itself then) and marks those replays', () => {
    const file = tempDbFile();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.exec(MIGRATIONS[1]!);
    old.pragma('user_version = 2');
    // The table exactly as the previous version's ReplayStore created it on start.
    old.exec(`CREATE TABLE IF NOT EXISTS replay_links (exchange_id TEXT PRIMARY KEY, replay_of TEXT NOT NULL, mode TEXT NOT NULL, ts REAL NOT NULL);
      CREATE INDEX IF NOT EXISTS replay_links_by_original ON replay_links(replay_of);`);
    const summary = (id: string) => ({ id, sessionKey: 's', requester: 'client', kind: 'request', method: 'ping', status: 'ok', startTs: Number(id), frameSeqs: [Number(id)], size: 0, diagnostics: 0, updatedSeq: Number(id) });
    for (const id of ['1', '3']) old.prepare("INSERT INTO exchanges (id, sort_key, session_key, status, method, updated_seq, summary) VALUES (?, ?, 's', 'ok', 'ping', ?, ?)").run(id, Number(id), Number(id), JSON.stringify(summary(id)));
    old.prepare("INSERT INTO replay_links VALUES ('3', '1', 'session', 9)").run();
    old.close();

    const store = new CaptureStore(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.exchange('3')).toEqual({ ...summary('3'), replayOf: '1' });
    expect(store.exchange('1')).toEqual(summary('1'));
    expect(store.replayLinks.replays('1')).toEqual(['3']);
    store.close();
  });

  it('opens a version-2 file (no deriver snapshot yet) by replaying its frames, and continues it', () => {
    const file = tempDbFile();
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.exec(MIGRATIONS[1]!);
    old.pragma('user_version = 2');
    const raw = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"suggest_gifts"}}';
    old.prepare("INSERT INTO frames (seq, ts, session_key, direction, transport, kind, raw, http, bytes) VALUES (1, 1.5, 's', 'c2s', 'http-json', 'data', ?, NULL, ?)").run(raw, raw.length);
    old.close();

    const store = new CaptureStore(file);
    expect(warmDeriver(store)).toMatchObject({ replayed: 1 });
    expect(warmDeriver(store).restoredAt).toBeUndefined();
    const pipeline = new CapturePipeline(store);
    pipeline.record({ ts: 9.5, sessionKey: 's', direction: 's2c', transport: 'http-json', kind: 'data', raw: '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}' });
    pipeline.close();
    // The answer pairs with the request stored before the upgrade: one exchange, not an orphan.
    expect(store.exchanges(10)).toEqual([expect.objectContaining({ id: '1', status: 'ok', frameSeqs: [1, 2], latencyMs: 8 })]);
    store.close();
  });

  it('refuses a file written by a newer mcpscope and leaves it untouched', () => {
    const file = tempDbFile();
    const newer = new Database(file);
    newer.exec('CREATE TABLE future (x)');
    newer.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    newer.close();
    expect(() => new CaptureStore(file)).toThrow(expect.objectContaining({ code: 'db_too_new' }) as InspectorError);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 5);
    check.close();
    // The failed open let go of the file: a later open is refused for the version, not the lock.
    expect(() => new CaptureStore(file)).toThrow(/newer mcpscope/);
  });
});
