// Migration 13 stores each session key once (session-keys.ts: rows hold a reference) and exchange
// summaries packed (templates.ts). Every reader gives what it gave from a file written before:
// a file of schema 12 opened read-only in place, the same file upgraded and written on, and a
// file written whole since, read through pages, the window, the catch-up text, filters, exports
// and lookups by session, give the same bytes.
import { copyFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parseFilter, type DoorRecord, type ExchangeSummary, type FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CaptureReader } from '../src/capture/capture-reader.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { CaptureQuery } from '../src/capture/capture-query.js';
import { filterToSql } from '../src/capture/filter-sql.js';
import { ExchangeWindows } from '../src/capture/capture-window.js';
import { buildExport } from '../src/interchange/export-service.js';
import { mixedTraffic } from './support/mixed-capture.js';
import { tempDbFile } from './store-helpers.js';

const SESSIONS = ['s-alpha', 's-beta', 'client:ua'];
const FILTERS = ['session:s-', 'session:s-beta', 'session=client:ua', 'session:client:', '!session:s-a', 'bow', 'id:6', 'id:"5"', 'dir:s2c', 'client:alpha', 'conversation:c1', 'diag:*', 'status:err & session:s-'];

/** A door record of a POST of `sessionKey`. */
function door(id: number, sessionKey: string): DoorRecord {
  return { id, rev: id, ts: 1_000 + id, method: 'POST', path: '/mcp', answer: 'upstream', end: 'complete', requestHeaders: { 'mcp-session-id': sessionKey, 'user-agent': 'node' }, responseHeaders: { 'content-type': 'application/json' }, requestBytes: 10, responseBytes: 20, peer: { address: '127.0.0.1', connection: id, port: 40000 + id }, userAgent: 'node', mcp: true, sessionKey, status: 200, frameSeqs: [], frameCount: 0 };
}

/** Records `frames` (and a door record per session) through the pipeline into `store`. */
function capture(store: CaptureStore, frames: readonly FrameInput[], doorFrom: number): void {
  const pipeline = new CapturePipeline(store);
  for (const f of frames) pipeline.record(f);
  // Closed, not only flushed: a capture file's engine runs on a worker with its own connection,
  // which must be gone before the file is checkpointed and copied.
  pipeline.close();
  store.write({ frames: [], requests: SESSIONS.map((key, i) => door(doorFrom + i, key)), exchanges: [], sessions: [], diagnostics: [], conversations: [] });
}

function exportText(reader: CaptureReader, options: Parameters<typeof buildExport>[1]): string {
  const out = buildExport(reader, options, new Date('2026-12-07T00:00:00Z'));
  if (!out.ok) throw new Error(out.message);
  return [...out.chunks].join('');
}

const parsedDoorFilter = parseFilter('session:s-beta');
if (!parsedDoorFilter.ok) throw new Error('door filter');
const doorFilter = parsedDoorFilter.filter;

/** What every reader of exchanges, frames and door records gives, as one text. */
function readEverything(reader: CaptureReader): string {
  const query = new CaptureQuery(reader);
  const windows = new ExchangeWindows(reader, { sliceMs: Infinity });
  const filtered = FILTERS.map((text) => {
    const parsed = parseFilter(text);
    if (!parsed.ok) throw new Error(text);
    return { text, page: query.exchangesJson(parsed.filter, 1000).summaries, frames: query.frames(parsed.filter, 0, 1000).frames, window: windows.window({ filter: parsed.filter, text }, { offset: 0 }, 1000).summaries, jsonl: exportText(reader, { format: 'jsonl', filter: text }) };
  });
  const all = reader.exchanges(1000);
  return JSON.stringify({
    page: query.exchangesJson(null, 1000).summaries,
    window: windows.window({ filter: null, text: '' }, { end: true }, 1000).summaries,
    sessions: reader.sessions(),
    catchUp: reader.exchangesUpdatedAfter(0, 1000),
    byId: all.map((ex) => reader.exchange(ex.id)),
    filtered,
    bySession: SESSIONS.map((key) => ({ exchanges: [...reader.exchangesInCaptureOrder(key)], frames: [...reader.select({ session: key })], latest: reader.latestOk(key, 'tools/call'), jsonl: exportText(reader, { format: 'jsonl', session: key }) })),
    frames: [...reader.select()],
    door: [...reader.door.all()],
    doorSession: reader.door.page(doorFilter, 0, 100),
    ended: [...reader.endedSessionKeys()],
    jsonl: exportText(reader, { format: 'jsonl' }),
    har: exportText(reader, { format: 'har' }),
  });
}

/**
 * `file` as schema 12 wrote it: session keys as themselves and summaries as JSON in every row, no
 * table of session keys, and no column a later migration added.
 */
function asSchema12(file: string): void {
  const reader = new CaptureStore(file);
  const summaries = (reader.db.prepare('SELECT id, summary FROM exchanges').all() as { id: string; summary: string }[]).map((r) => [reader.summaryText(r.summary), r.id]);
  reader.close();
  const db = new Database(file);
  const set = db.prepare('UPDATE exchanges SET summary = ? WHERE id = ?');
  for (const [summary, id] of summaries) set.run(summary, id);
  for (const table of ['frames', 'exchanges', 'door_requests']) {
    db.exec(`UPDATE ${table} SET session_key = (SELECT key FROM session_keys WHERE char(1) || id = ${table}.session_key) WHERE session_key LIKE char(1) || '%'`);
  }
  db.exec('DROP TABLE session_keys');
  db.exec('ALTER TABLE frames DROP COLUMN like_decides');
  db.pragma('user_version = 12');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

describe('session keys stored once, summaries packed (migration 13)', () => {
  const frames = mixedTraffic();
  const half = Math.floor(frames.length / 2);

  it('stores each key once and every summary packed, and reads a file of schema 12 in place, upgraded and written on, as one written since', () => {
    const whole = tempDbFile();
    const store = new CaptureStore(whole);
    capture(store, frames.slice(0, half), 1);
    capture(store, frames.slice(half), 10);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM frames WHERE session_key NOT LIKE char(1) || '%'").get()).toEqual({ n: 0 });
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM exchanges WHERE summary NOT LIKE '[%'").get()).toEqual({ n: 0 });
    expect((store.db.prepare('SELECT key FROM session_keys ORDER BY id').all() as { key: string }[]).map((r) => r.key).sort()).toEqual([...SESSIONS].sort());
    const expected = readEverything(store);
    store.close();

    // Written before migration 13, then upgraded and written on: a session's rows are in both layouts.
    const upgraded = tempDbFile();
    const early = new CaptureStore(upgraded);
    capture(early, frames.slice(0, half), 1);
    early.close();
    asSchema12(upgraded);
    const copy = `${upgraded}.copy.db`;
    copyFileSync(upgraded, copy);
    const inPlace = CaptureReader.openFile(copy);
    try {
      const onlyEarly = tempDbFile();
      const reference = new CaptureStore(onlyEarly);
      capture(reference, frames.slice(0, half), 1);
      expect(readEverything(inPlace)).toBe(readEverything(reference));
      reference.close();
    } finally {
      inPlace.close();
    }
    const later = new CaptureStore(upgraded);
    try {
      capture(later, frames.slice(half), 10);
      // A key's frames and exchanges from before took its reference when it was interned; its door records keep the key.
      for (const table of ['frames', 'exchanges']) expect(later.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE session_key NOT LIKE char(1) || '%'`).get(), table).toEqual({ n: 0 });
      expect(later.db.prepare("SELECT COUNT(*) AS n FROM door_requests WHERE session_key NOT LIKE char(1) || '%'").get()).toEqual({ n: SESSIONS.length });
      expect(readEverything(later)).toBe(expected);
    } finally {
      later.close();
    }
  });

  it('a session= page walks its session index in capture order, whichever form its rows hold', () => {
    const store = new CaptureStore(tempDbFile());
    try {
      capture(store, frames, 1);
      const parsed = parseFilter('session=s-beta');
      if (!parsed.ok) throw new Error('filter');
      const pushed = filterToSql(parsed.filter, store.frameColumns)!;
      const plan = store.db.prepare(`EXPLAIN QUERY PLAN SELECT summary FROM exchanges WHERE sort_key < ? AND sort_key >= ? AND (${pushed.sql}) ORDER BY sort_key DESC`).all(1e9, 0, ...pushed.params) as { detail: string }[];
      const steps = plan.map((r) => r.detail).join(' | ');
      expect(steps).toContain('exchanges_by_session');
      expect(steps).not.toContain('TEMP B-TREE');
    } finally {
      store.close();
    }
  });

  it('a packed summary reads back as the text it was written as, whatever its values', () => {
    const store = new CaptureStore(tempDbFile());
    try {
      const base = { sessionKey: 's-"quoted"\u2028', requester: 'client', kind: 'request', method: 'tools/call', status: 'ok', startTs: 1.5, frameSeqs: [1, 2], size: 0, diagnostics: 0, updatedSeq: 2 } as const;
      const summaries = [
        { id: '1', ...base, rpcId: null, target: 'a\u0000b', errorMessage: 'ünïcode "and" \\ escapes' },
        { id: '2', direction: 'c2s', ...base, rpcId: '7', intercepted: { rule: 'r', text: 'x', action: 'drop' }, progressAt: [] },
        { id: '3', ...base, status: 'pending', rpcId: 0, transportEvent: 'redirected', inputRequired: true, target: undefined },
        { ...base, id: '4.1', kind: 'notification', requester: 'none', direction: 's2c', replayOf: '3', latencyMs: -0 },
      ] as unknown as ExchangeSummary[];
      const written = store.write({ frames: [], exchanges: summaries, sessions: [], diagnostics: [], conversations: [] });
      expect(store.db.prepare("SELECT COUNT(*) AS n FROM exchanges WHERE summary LIKE '[%'").get()).toEqual({ n: summaries.length });
      expect(store.exchangesUpdatedAfter(0, 100).map((r) => r.summary)).toEqual(summaries.map((ex) => JSON.stringify(ex)));
      expect(written.exchanges).toEqual(summaries.map((ex) => JSON.stringify(ex)));
      expect(summaries.map((ex) => JSON.stringify(store.exchange(ex.id)))).toEqual(summaries.map((ex) => JSON.stringify(ex)));
    } finally {
      store.close();
    }
  });

  it('a key stored before that began as a reference does is made one by the migration, and reads as itself only', () => {
    const file = tempDbFile();
    const store = new CaptureStore(file);
    // Spelled as the reference of id 2 is: the second key the upgraded file stores.
    const odd = '\u00012';
    const renamed = (part: readonly FrameInput[]) => part.map((f) => (f.sessionKey === 's-beta' ? { ...f, sessionKey: odd } : f));
    capture(store, renamed(frames.slice(0, half)), 1);
    store.close();
    asSchema12(file);
    const upgraded = new CaptureStore(file);
    try {
      expect((upgraded.db.prepare('SELECT key FROM session_keys').all() as { key: string }[]).map((r) => r.key)).toEqual([odd]);
      capture(upgraded, renamed(frames.slice(half)), 10);
      expect(upgraded.db.prepare('SELECT key FROM session_keys WHERE id = 2').get()).not.toEqual({ key: odd });
      expect(new Set([...upgraded.select()].map((f) => f.sessionKey))).toEqual(new Set(['s-alpha', odd, 'client:ua']));
      const own = [...upgraded.select({ session: odd })];
      expect(own.length).toBe(renamed(frames).filter((f) => f.sessionKey === odd).length);
      expect(own.every((f) => f.sessionKey === odd)).toBe(true);
      expect([...upgraded.exchangesInCaptureOrder(odd)].every((ex) => ex.sessionKey === odd)).toBe(true);
      const exact = parseFilter(`session="${odd}"`);
      if (!exact.ok) throw new Error('filter');
      expect(new CaptureQuery(upgraded).exchanges(exact.filter, 1000).exchanges.every((ex) => ex.sessionKey === odd)).toBe(true);
    } finally {
      upgraded.close();
    }
  });
});
