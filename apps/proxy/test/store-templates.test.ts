// What frames' HTTP layers and door records repeat is stored once (templates.ts, migration 12):
// rows that carry the same headers, keys and shared values name one stored template, and every
// reader gives back the objects as they were given, key for key and in order, from new files and
// from files written before templates.
import { copyFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import type { DoorRecord, Frame } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CaptureReader } from '../src/capture/capture-reader.js';
import { MIGRATIONS } from '../src/capture/migrations.js';
import { rebuildDerived } from '../src/capture/rebuild.js';
import { TemplateWriter, headerTemplate, packExchange, type Accept } from '../src/capture/templates.js';
import { buildExport } from '../src/interchange/export-service.js';
import { tempDbFile } from './store-helpers.js';

const SESSION = '0000000a-022c-450c-bcce-c28d3f513d93';

function requestHeaders(length: number): Record<string, string> {
  return { host: '127.0.0.1:34863', 'mcp-session-id': SESSION, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'node', 'content-length': String(length) };
}

function responseHeaders(ts: number, length: number): Record<string, string> {
  return { 'x-powered-by': 'Express', 'content-type': 'application/json', 'mcp-session-id': SESSION, date: new Date(ts).toUTCString(), 'content-length': String(length) };
}

/** `calls` POSTs: each a request frame, its answer and its door record, headers as the tap records them. */
function traffic(calls: number): { frames: Frame[]; requests: DoorRecord[] } {
  const frames: Frame[] = [];
  const requests: DoorRecord[] = [];
  for (let i = 0; i < calls; i++) {
    const ts = 1_750_000_000_000 + i * 1000;
    const raw = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { note: 'x'.repeat(i) } } });
    const answer = JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [] } });
    const req = requestHeaders(raw.length);
    const res = responseHeaders(ts, answer.length);
    frames.push({ seq: 2 * i + 1, ts, sessionKey: SESSION, direction: 'c2s', transport: 'http-json', kind: 'data', raw, http: { method: 'POST', path: '/mcp', connectionId: `h${i}`, requestId: i + 1, requestHeaders: req } });
    frames.push({ seq: 2 * i + 2, ts: ts + 2, sessionKey: SESSION, direction: 's2c', transport: 'http-json', kind: 'data', raw: answer, http: { method: 'POST', path: '/mcp', status: 200, responseHeaders: res, connectionId: `h${i}`, requestId: i + 1 } });
    requests.push({
      id: i + 1,
      rev: i + 1,
      ts,
      method: 'POST',
      path: '/mcp',
      answer: 'upstream',
      end: 'complete',
      requestHeaders: req,
      responseHeaders: res,
      requestBytes: raw.length,
      responseBytes: answer.length,
      peer: { address: '127.0.0.1', connection: i, port: 40000 + i },
      userAgent: 'node',
      mcp: true,
      sessionKey: SESSION,
      status: 200,
      frameSeqs: [2 * i + 1, 2 * i + 2],
      frameCount: 2,
    });
  }
  return { frames, requests };
}

const NOTHING_DERIVED = { exchanges: [], sessions: [], diagnostics: [], conversations: [] };

/** A file as schema 11 wrote it: header maps inline, in the JSON of `http` and of the record. */
function schema11File(frames: readonly Frame[], requests: readonly DoorRecord[]): string {
  const file = tempDbFile();
  const db = new Database(file);
  db.exec(MIGRATIONS.slice(0, 11).join(';\n'));
  db.pragma('user_version = 11');
  const frame = db.prepare('INSERT INTO frames (seq, ts, session_key, direction, transport, kind, raw, http, bytes, parts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)');
  for (const f of frames) frame.run(f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.raw, f.http ? JSON.stringify(f.http) : null, Buffer.byteLength(f.raw));
  const door = db.prepare("INSERT INTO door_requests (id, rev, ts, method, path, status, probe, session_key, user_agent, end_ms, bytes, record) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, ?, ?)");
  for (const r of requests) door.run(r.id, r.rev, r.ts, r.method, r.path, r.status ?? null, r.sessionKey ?? null, r.userAgent ?? null, r.requestBytes + r.responseBytes, JSON.stringify(r));
  db.close();
  return file;
}

const texts = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v));

function exportText(reader: CaptureReader, format: 'jsonl' | 'har'): string {
  const out = buildExport(reader, { format }, new Date('2026-12-06T00:00:00Z'));
  if (!out.ok) throw new Error(out.message);
  return [...out.chunks].join('');
}

describe('templates', () => {
  it('stores what rows repeat once and reads every frame and door record back as it was given', () => {
    const { frames, requests } = traffic(20);
    const store = new CaptureStore(tempDbFile());
    try {
      const written = store.write({ frames, requests, ...NOTHING_DERIVED });
      // The request's headers and the answer's (their lengths and dates are each request's own),
      // the request frames' and the answer frames' HTTP layers, and the door records'.
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM templates').get()).toEqual({ n: 5 });
      expect(store.db.prepare("SELECT COUNT(*) AS n FROM frames WHERE http NOT LIKE '[%'").get()).toEqual({ n: 0 });
      expect(store.db.prepare("SELECT COUNT(*) AS n FROM door_requests WHERE record NOT LIKE '[%'").get()).toEqual({ n: 0 });
      // A door record names the very template of its request frame's headers.
      const named = (table: string, column: string) => (store.db.prepare(`SELECT DISTINCT v.value AS v FROM ${table}, json_each(${table}.${column}) v WHERE v.type = 'array'`).all() as { v: string }[]).map((r) => (JSON.parse(r.v) as number[])[0]);
      expect(named('door_requests', 'record')).toEqual(expect.arrayContaining(named('frames', 'http')));
      expect(texts(store.frames(frames.map((f) => f.seq)))).toEqual(texts(frames));
      expect(texts([...store.door.all()])).toEqual(texts(requests));
      expect(texts(requests.map((r) => store.door.get(r.id)))).toEqual(texts(requests));
      // The dashboards' catch-up and the live write give the record's own JSON text.
      expect(store.door.updatedAfter(0, 100)).toEqual(texts(requests));
      expect(written.requests).toEqual(texts(requests));
    } finally {
      store.close();
    }
  });

  it('reads a file written before templates in place, migrates it, and packs what is written after', () => {
    const { frames, requests } = traffic(10);
    const file = schema11File(frames.slice(0, 10), requests.slice(0, 5));
    const reader = CaptureReader.openFile(file);
    try {
      expect(texts(reader.frames(frames.slice(0, 10).map((f) => f.seq)))).toEqual(texts(frames.slice(0, 10)));
      expect(texts([...reader.door.all()])).toEqual(texts(requests.slice(0, 5)));
    } finally {
      reader.close();
    }
    const store = new CaptureStore(file);
    try {
      expect(texts(store.frames(frames.slice(0, 10).map((f) => f.seq)))).toEqual(texts(frames.slice(0, 10)));
      store.write({ frames: frames.slice(10), requests: requests.slice(5), ...NOTHING_DERIVED });
      expect(texts(store.frames(frames.map((f) => f.seq)))).toEqual(texts(frames));
      expect(texts([...store.door.all()])).toEqual(texts(requests));
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM templates').get()).toEqual({ n: 5 });
    } finally {
      store.close();
    }
  });

  it('exports JSONL and HAR byte for byte as from the same capture stored with its maps inline', () => {
    const { frames, requests } = traffic(12);
    const before = CaptureReader.openFile(schema11File(frames, requests));
    const after = new CaptureStore(tempDbFile());
    try {
      after.write({ frames, requests, ...NOTHING_DERIVED });
      expect(exportText(after, 'jsonl')).toBe(exportText(before, 'jsonl'));
      expect(exportText(after, 'har')).toBe(exportText(before, 'har'));
    } finally {
      before.close();
      after.close();
    }
  });

  it('a rebuild drops the templates no row names any more and keeps the rest', () => {
    const { frames, requests } = traffic(4);
    const file = tempDbFile();
    const store = new CaptureStore(file);
    try {
      store.write({ frames, requests, ...NOTHING_DERIVED });
      const other = { ...frames[0]!, seq: 100, http: { ...frames[0]!.http!, requestHeaders: { ...requestHeaders(5), 'user-agent': 'curl/8.5.0 (only once)' } } };
      store.write({ frames: [other], ...NOTHING_DERIVED });
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM templates').get()).toEqual({ n: 6 });
      store.db.prepare('DELETE FROM frames WHERE seq = 100').run();
      rebuildDerived(store);
      // The rebuild stores the exchanges it derives packed (their templates name `requester`).
      expect(store.db.prepare(`SELECT COUNT(*) AS n FROM templates WHERE text NOT LIKE '%"requester"%'`).get()).toEqual({ n: 5 });
      expect(texts(store.frames(frames.map((f) => f.seq)))).toEqual(texts(frames));
      expect(texts([...store.door.all()])).toEqual(texts(requests));
    } finally {
      store.close();
    }
    const copy = `${file}.copy`;
    copyFileSync(file, copy);
    const reader = CaptureReader.openFile(copy);
    expect(texts(reader.frames(frames.map((f) => f.seq)))).toEqual(texts(frames));
    reader.close();
  });

  it('a template whose id another text holds is refused, and no write gives an id a second text', () => {
    const { frames } = traffic(1);
    const store = new CaptureStore(tempDbFile());
    try {
      store.write({ frames, ...NOTHING_DERIVED });
      const stored = store.db.prepare('SELECT id, text FROM templates LIMIT 1').get() as { id: number; text: string };
      const writer = new TemplateWriter(store.db);
      expect(writer.accepts(stored)).toBe(true);
      expect(writer.accepts({ id: stored.id, text: '[["host","elsewhere"]]' })).toBe(false);
      expect(() => store.db.prepare('INSERT INTO templates (id, text) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET text = excluded.text WHERE text <> excluded.text').run(stored.id, '[["host","elsewhere"]]')).toThrow(/another text/);
      expect(headerTemplate({ a: 'b' })).toBeUndefined();
    } finally {
      store.close();
    }
  });

  // A template's id is its text's hash: a text spelled otherwise than JSON.stringify spells the
  // entries would name the same template twice, under another id than earlier writers gave it.
  it('a header template\'s text is the JSON of its entries, for any names and values', () => {
    const volatile = new Set(['content-length', 'date', 'traceparent', 'etag']);
    const name = fc.oneof(fc.constantFrom(...volatile, 'host', '__proto__', 'mcp-session-id'), fc.string({ unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string({ unit: 'binary' })), { maxLength: 12 }), (pairs) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of pairs) Object.defineProperty(headers, k, { value: v, enumerable: true, writable: true, configurable: true });
        const expected = JSON.stringify(Object.keys(headers).map((k) => (volatile.has(k) ? [k] : [k, headers[k]])));
        const template = headerTemplate(headers);
        if (expected.length < 48) expect(template).toBeUndefined();
        else expect(template?.text).toBe(expected);
      }),
    );
  });

  it('two exchange summaries name one template exactly when their templates\' texts are equal', () => {
    // Values that are alike in some spelling; b differs from a in one kept value at most.
    const kept = fc.oneof(fc.constantFrom<unknown>(1, '1', 'j1', 's1', 'a', 'a\u0000', 'a\u0000j1', 'ja', 'sa', '"a"', 'j"a"', null, 'null', true), fc.string({ unit: 'binary' }));
    const keptNames = ['sessionKey', 'method', 'target', 'status'] as const;
    const summary = fc.record({ sessionKey: kept, method: kept, target: kept, status: kept, startTs: fc.double(), rpcId: fc.integer() });
    const templateOf = (s: object) => {
      let named: { id: number; text: string } | undefined;
      const accept: Accept = (t) => ((named = { id: t.id, text: t.text }), true);
      packExchange(s, accept);
      return named!;
    };
    const keptText = (s: Record<string, unknown>) => JSON.stringify(Object.keys(s).map((k) => (k === 'startTs' || k === 'rpcId' ? [k] : [k, s[k]])));
    fc.assert(
      fc.property(summary, fc.constantFrom(...keptNames), kept, (a, name, value) => {
        const b = { ...a, [name]: value };
        const [ta, tb] = [templateOf(a), templateOf(b)];
        expect(ta.text).toBe(keptText(a));
        expect(tb.text).toBe(keptText(b));
        expect(ta.id === tb.id).toBe(ta.text === tb.text);
      }),
      { numRuns: 1000 },
    );
  });
});
