/**
 * The SQLite capture store. Writes come in batches (one transaction per tick); reads serve the
 * API. Frames are inserted, never updated; exchanges and sessions are upserted as they change.
 */
import Database from 'better-sqlite3';
import type { ExchangeSummary, Frame, FrameView, SessionSummary } from '@mcpscope/protocol';
import { FRAME_RAW_LIMIT, toFrameView } from '@mcpscope/protocol';
import { migrate } from './migrations.js';

interface FrameRow {
  seq: number;
  ts: number;
  session_key: string;
  direction: Frame['direction'];
  transport: Frame['transport'];
  kind: Frame['kind'];
  raw: string;
  http: string | null;
}

export class CaptureStore {
  readonly db: Database.Database;
  private readonly insertFrame: Database.Statement;
  private readonly upsertExchange: Database.Statement;
  private readonly upsertSession: Database.Statement;

  constructor(readonly file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives a process crash (kill -9); only an OS crash can lose
    // the last transactions. That is the durability mcpscope promises.
    this.db.pragma('synchronous = NORMAL');
    migrate(this.db);
    this.insertFrame = this.db.prepare(
      'INSERT INTO frames (seq, ts, session_key, direction, transport, kind, raw, http) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.upsertExchange = this.db.prepare(
      `INSERT INTO exchanges (id, sort_key, session_key, status, method, updated_seq, summary) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, method = excluded.method, updated_seq = excluded.updated_seq, summary = excluded.summary`,
    );
    this.upsertSession = this.db.prepare(
      `INSERT INTO sessions (session_key, last_ts, summary) VALUES (?, ?, ?)
       ON CONFLICT(session_key) DO UPDATE SET last_ts = excluded.last_ts, summary = excluded.summary`,
    );
  }

  /** The highest stored seq, 0 for an empty store. */
  head(): number {
    const row = this.db.prepare('SELECT MAX(seq) AS head FROM frames').get() as { head: number | null };
    return row.head ?? 0;
  }

  /** Writes one tick's worth of frames and derived rows atomically. */
  write(frames: Frame[], exchanges: ExchangeSummary[], sessions: SessionSummary[]): void {
    this.db.transaction(() => {
      for (const f of frames) {
        this.insertFrame.run(f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.raw, f.http ? JSON.stringify(f.http) : null);
      }
      for (const ex of exchanges) {
        this.upsertExchange.run(ex.id, sortKey(ex.id), ex.sessionKey, ex.status, ex.method ?? null, ex.updatedSeq, JSON.stringify(ex));
      }
      for (const s of sessions) this.upsertSession.run(s.sessionKey, s.lastTs, JSON.stringify(s));
    })();
  }

  framesAfter(after: number, limit: number): FrameView[] {
    const rows = this.db.prepare('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit) as FrameRow[];
    return rows.map((r) => toView(r, FRAME_RAW_LIMIT));
  }

  framesBySeq(seqs: number[], rawLimit = Infinity): FrameView[] {
    if (seqs.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT * FROM frames WHERE seq IN (${seqs.map(() => '?').join(',')}) ORDER BY seq`)
      .all(...seqs) as FrameRow[];
    return rows.map((r) => toView(r, rawLimit));
  }

  /** Newest first, paged by `before` (a sort key). */
  exchanges(limit: number, before?: number): ExchangeSummary[] {
    const rows = (before === undefined
      ? this.db.prepare('SELECT summary FROM exchanges ORDER BY sort_key DESC LIMIT ?').all(limit)
      : this.db.prepare('SELECT summary FROM exchanges WHERE sort_key < ? ORDER BY sort_key DESC LIMIT ?').all(before, limit)) as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as ExchangeSummary);
  }

  /** Exchanges changed by frames after `after`, oldest change first (for WebSocket catch-up). */
  exchangesUpdatedAfter(after: number, limit: number): ExchangeSummary[] {
    const rows = this.db
      .prepare('SELECT summary FROM exchanges WHERE updated_seq > ? ORDER BY updated_seq LIMIT ?')
      .all(after, limit) as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as ExchangeSummary);
  }

  exchange(id: string): ExchangeSummary | undefined {
    const row = this.db.prepare('SELECT summary FROM exchanges WHERE id = ?').get(id) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ExchangeSummary) : undefined;
  }

  sessions(): SessionSummary[] {
    const rows = this.db.prepare('SELECT summary FROM sessions ORDER BY last_ts DESC').all() as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as SessionSummary);
  }

  close(): void {
    this.db.close();
  }
}

/** `12` → 12, `12.3` (third item of the batch in frame 12) → 12.003: keeps batch items in order. */
export function sortKey(exchangeId: string): number {
  const [seq, index] = exchangeId.split('.');
  return Number(seq) + (index === undefined ? 0 : (Number(index) + 1) / 10_000);
}

function toView(r: FrameRow, rawLimit: number): FrameView {
  const frame: Frame = { seq: r.seq, ts: r.ts, sessionKey: r.session_key, direction: r.direction, transport: r.transport, kind: r.kind, raw: r.raw };
  if (r.http) frame.http = JSON.parse(r.http) as Frame['http'];
  return toFrameView(frame, rawLimit);
}
