/**
 * Which exchange replays which (the `replay_links` table, migration 3). Links are not derived from
 * frames: a replay's frames look like any other request, so the link is the one fact replay adds.
 * A rebuild empties only the derived tables and keeps this one.
 *
 * How a replayed exchange comes to carry `replayOf` everywhere (API pages, detail, WebSocket
 * pushes and catch-up): replay records the link as soon as the pipeline has given the request
 * frame its seq, which is before that frame is derived and written (the pipeline writes once per
 * tick). Every write of an exchange summary then passes through `annotate`, so the stored summary
 * and the batch the live hub broadcasts both carry it, however often later frames (the answer,
 * progress) re-upsert the row, and a rebuild writes it again too. Attaching it on every read
 * instead would touch each read path (pages, detail, catch-up, live batches) and miss any new one.
 *
 * The links are few (each is a user's click), so they are also held in memory: annotating a write
 * costs one Map lookup, and nothing when there are none.
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';
import type { ExchangeSummary } from '@mcpscope/protocol';

export class ReplayLinks {
  private readonly byReplay = new Map<string, string>();
  private readonly insert: SqliteStatement;
  private readonly byOriginal: SqliteStatement;

  constructor(db: SqliteDatabase) {
    for (const row of db.prepare('SELECT exchange_id, replay_of FROM replay_links').all() as { exchange_id: string; replay_of: string }[]) {
      this.byReplay.set(row.exchange_id, row.replay_of);
    }
    this.insert = db.prepare('INSERT OR REPLACE INTO replay_links (exchange_id, replay_of, mode, ts) VALUES (?, ?, ?, ?)');
    this.byOriginal = db.prepare('SELECT exchange_id FROM replay_links WHERE replay_of = ? ORDER BY ts');
  }

  /** Records that `exchangeId` replays `replayOf`; call it before the replay's frames are written. */
  link(exchangeId: string, replayOf: string, mode: string, ts: number): void {
    this.insert.run(exchangeId, replayOf, mode, ts);
    this.byReplay.set(exchangeId, replayOf);
  }

  replayOf(exchangeId: string): string | undefined {
    return this.byReplay.get(exchangeId);
  }

  /** The replays of an exchange, oldest first. */
  replays(exchangeId: string): string[] {
    const rows = this.byOriginal.all(exchangeId) as { exchange_id: string }[];
    return rows.map((r) => r.exchange_id);
  }

  /** Sets `replayOf` on a summary about to be written (in place: the same object is broadcast). */
  annotate(ex: ExchangeSummary): void {
    if (this.byReplay.size === 0) return;
    const replayOf = this.byReplay.get(ex.id);
    if (replayOf !== undefined) ex.replayOf = replayOf;
  }
}
