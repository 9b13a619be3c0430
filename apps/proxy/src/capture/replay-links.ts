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
 *
 * The same table links a tool call a widget preview made to the tools/call whose widget made it
 * (mode `widget`): that summary carries `widgetOf` instead of `replayOf`, and it is not a replay.
 * And what the dashboard's Drive panel sent or answered (mode `dashboard`) to the list exchange its
 * form came from, or to itself: that summary carries `fromDashboard`.
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';
import type { ExchangeSummary } from '@mcpscope/protocol';

/** The link mode of a call a widget made (the others are replay modes: `session`, `fresh`). */
export const WIDGET_LINK = 'widget';
/** The link mode of what the dashboard sent (a form-built call) or answered (a server request). */
export const DASHBOARD_LINK = 'dashboard';

/** The summary field each non-replay link mode sets; every other mode is a replay (`replayOf`). */
const FIELD_OF_MODE: Record<string, 'widgetOf' | 'fromDashboard'> = { [WIDGET_LINK]: 'widgetOf', [DASHBOARD_LINK]: 'fromDashboard' };
const fieldOf = (mode: string): 'replayOf' | 'widgetOf' | 'fromDashboard' => FIELD_OF_MODE[mode] ?? 'replayOf';

interface Link {
  to: string;
  mode: string;
}

/** A link as the engine's worker learns it (it annotates the summaries it writes: engine-worker.ts). */
export interface ReplayLink {
  exchangeId: string;
  replayOf: string;
  mode: string;
}

/** The seq of the frame that opened an exchange, from its id (`"12"`, or `"12.1"` for a batch's item). */
export function exchangeOpener(exchangeId: string): number {
  return Number.parseInt(exchangeId, 10);
}

/** One row of the table, as an export carries it: `exchangeId` replays (or was made by the widget of) `replayOf`. */
export interface StoredLink {
  exchangeId: string;
  replayOf: string;
  mode: string;
  ts: number;
}

export class ReplayLinks {
  private readonly byReplay = new Map<string, Link>();
  /** Links made since `takeNew()` last ran, once `forwardNew()` asked for them (worker-engine.ts). */
  private made: ReplayLink[] | undefined;
  private readonly insert: SqliteStatement;
  private readonly byOriginal: SqliteStatement;
  private readonly everyLink: SqliteStatement;
  private readSummary: SqliteStatement | undefined;
  private setSummary: SqliteStatement | undefined;

  constructor(private readonly db: SqliteDatabase) {
    for (const row of db.prepare('SELECT exchange_id, replay_of, mode FROM replay_links').all() as { exchange_id: string; replay_of: string; mode: string }[]) {
      this.byReplay.set(row.exchange_id, { to: row.replay_of, mode: row.mode });
    }
    this.insert = db.prepare('INSERT OR REPLACE INTO replay_links (exchange_id, replay_of, mode, ts) VALUES (?, ?, ?, ?)');
    this.byOriginal = db.prepare('SELECT exchange_id, mode FROM replay_links WHERE replay_of = ? ORDER BY ts');
    this.everyLink = db.prepare('SELECT exchange_id, replay_of, mode, ts FROM replay_links ORDER BY ts, exchange_id');
  }

  /** Every link, oldest first (exports carry them: they cannot be derived again from frames). */
  all(): StoredLink[] {
    const rows = this.everyLink.all() as { exchange_id: string; replay_of: string; mode: string; ts: number }[];
    return rows.map((r) => ({ exchangeId: r.exchange_id, replayOf: r.replay_of, mode: r.mode, ts: r.ts }));
  }

  /** Records that `exchangeId` replays `replayOf` (or, in mode `widget`, was made by its widget); call it before its frames are written. */
  link(exchangeId: string, replayOf: string, mode: string, ts: number): void {
    this.insert.run(exchangeId, replayOf, mode, ts);
    this.byReplay.set(exchangeId, { to: replayOf, mode });
    this.made?.push({ exchangeId, replayOf, mode });
  }

  /**
   * From now on, keeps the links made here for `takeNew()`: another connection (the engine's
   * worker) annotates the summaries it writes, and has read the table as it was when this is called.
   */
  forwardNew(): void {
    this.made = [];
  }

  /** The links made since the last call (none unless `forwardNew()` ran). */
  takeNew(): ReplayLink[] {
    const made = this.made;
    if (made === undefined || made.length === 0) return [];
    this.made = [];
    return made;
  }

  /** A link another connection made (and stored): summaries written here carry it from now on. */
  learn(link: ReplayLink): void {
    this.byReplay.set(link.exchangeId, { to: link.replayOf, mode: link.mode });
  }

  /**
   * Puts a file's links back, each on the exchanges its new seqs name: call the returned function
   * right after recording the frame whose seq in the file was `original`. A replay is opened by a
   * later frame than its original (it is sent after what it replays), so both ends are known
   * then, and the link is in place before that frame is written: the written summary carries
   * `replayOf` even when an import flushes part-way.
   */
  restorer(links: readonly StoredLink[]): (original: number, seqOf: ReadonlyMap<number, number>) => string[] {
    const byOpener = new Map<number, StoredLink[]>();
    for (const link of links) {
      const opener = exchangeOpener(link.exchangeId);
      const list = byOpener.get(opener);
      if (list) list.push(link);
      else byOpener.set(opener, [link]);
    }
    const renamed = (id: string, seqOf: ReadonlyMap<number, number>) => {
      const seq = seqOf.get(exchangeOpener(id));
      const dot = id.indexOf('.');
      return seq === undefined ? undefined : `${seq}${dot < 0 ? '' : id.slice(dot)}`;
    };
    return (original, seqOf) => {
      const linked: string[] = [];
      for (const link of byOpener.get(original) ?? []) {
        const exchangeId = renamed(link.exchangeId, seqOf);
        const replayOf = renamed(link.replayOf, seqOf);
        if (exchangeId === undefined || replayOf === undefined) continue;
        this.link(exchangeId, replayOf, link.mode, link.ts);
        linked.push(exchangeId);
      }
      return linked;
    };
  }

  replayOf(exchangeId: string): string | undefined {
    const link = this.byReplay.get(exchangeId);
    return link && fieldOf(link.mode) === 'replayOf' ? link.to : undefined;
  }

  /** The replays of an exchange, oldest first. */
  replays(exchangeId: string): string[] {
    return this.linked(exchangeId, 'replayOf');
  }

  /** The calls the exchange's widget made in previews, oldest first. */
  widgetCalls(exchangeId: string): string[] {
    return this.linked(exchangeId, 'widgetOf');
  }

  /** Sets `replayOf` (or `widgetOf`, `fromDashboard`) on a summary about to be written (in place: the same object is broadcast). */
  annotate(ex: ExchangeSummary): void {
    if (this.byReplay.size === 0) return;
    const link = this.byReplay.get(ex.id);
    if (link === undefined) return;
    ex[fieldOf(link.mode)] = link.to;
  }

  /**
   * Writes the links of these exchanges into their stored summaries, as `annotate` would have: for
   * links put back after their exchanges were written (a streamed import stores a file's frames
   * before the links that follow them in mcpscope JSONL). `summaryOf` reads a stored summary
   * (CaptureReader.summary); the annotated one is stored as its JSON.
   */
  annotateStored(exchangeIds: Iterable<string>, summaryOf: (stored: string) => ExchangeSummary): void {
    this.readSummary ??= this.db.prepare('SELECT summary FROM exchanges WHERE id = ?');
    this.setSummary ??= this.db.prepare('UPDATE exchanges SET summary = ? WHERE id = ?');
    for (const id of exchangeIds) {
      const link = this.byReplay.get(id);
      const row = link === undefined ? undefined : (this.readSummary.get(id) as { summary: string } | undefined);
      if (link === undefined || row === undefined) continue;
      const summary = summaryOf(row.summary);
      summary[fieldOf(link.mode)] = link.to;
      this.setSummary.run(JSON.stringify(summary), id);
    }
  }

  private linked(exchangeId: string, field: 'replayOf' | 'widgetOf'): string[] {
    const rows = this.byOriginal.all(exchangeId) as { exchange_id: string; mode: string }[];
    return rows.filter((r) => fieldOf(r.mode) === field).map((r) => r.exchange_id);
  }
}
