/**
 * The dashboard's live state: the exchange index and its filtered view, sessions, recent frames
 * and the connection status. Deltas from the WebSocket are queued and applied once per animation
 * frame, so a burst of frames costs one render, not one per message.
 *
 * The index and the view are mutable objects (see exchange-index.ts for why); `tick` moves on
 * every applied batch and is what components subscribe to.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ConversationSummary, ExchangeSummary, FrameView, RetentionInfo, SessionSummary } from '@mcpscope/protocol';
import { ExchangeIndex } from './exchange-index.js';
import { ViewIndex, matchAll, type ExchangePredicate } from './view-index.js';

/** `rejected`: the proxy answers but refuses this tab's token (it restarted with a new one). */
export type ConnectionState = 'connecting' | 'live' | 'down' | 'rejected';

/** Frames kept in memory for the raw view; older ones are read from the API on demand. */
export const FRAME_CAP = 50_000;

export interface LiveState {
  index: ExchangeIndex;
  view: ViewIndex;
  /** Moves whenever the index or the view changed. */
  tick: number;
  sessions: Map<string, SessionSummary>;
  /** Conversations by key (the sessions a host churned through, put back together). */
  conversations: Map<string, ConversationSummary>;
  /** Frames in capture order (the newest FRAME_CAP of them). */
  frames: FrameView[];
  framesTick: number;
  /** Highest frame seq the dashboard has fully applied (the WebSocket resume cursor). */
  head: number;
  connection: ConnectionState;
  /** When the connection went down (ms since epoch), for the banner. */
  downSince?: number;
  error?: string;
  /** True once the first snapshot is in: before that, "nothing captured" would be a lie. */
  loaded: boolean;
  /** What retention removed from the capture, so the dashboard can say the oldest rows are gone. */
  retention?: RetentionInfo;
  setPredicate(predicate: ExchangePredicate): void;
}

export interface Delta {
  head?: number;
  exchanges?: readonly ExchangeSummary[];
  sessions?: readonly SessionSummary[];
  conversations?: readonly ConversationSummary[];
  frames?: readonly FrameView[];
}

export type LiveStore = UseBoundStore<StoreApi<LiveState>> & {
  queueDelta(delta: Delta): void;
  /**
   * From now on the index holds at most about `keep` rows (between `keep` and twice that, so a
   * trim runs once per `keep` new rows) plus the `pinned` ones: a capture read by windows
   * (window-store.ts) needs only the newest rows and what the user holds on to.
   */
  holdNewest(keep: number, pinned: () => Iterable<string>): void;
  /**
   * From now on `sessions` holds at most about `keep` sessions (between `keep` and twice that),
   * the most recently started, plus the `pinned` ones: a capture whose sessions are read by
   * windows (session-windows.ts) needs only the newest and those the user holds on to.
   */
  holdNewestSessions(keep: number, pinned: () => Iterable<string>): void;
  /**
   * From now on `conversations` holds at most about `keep` conversations (between `keep` and twice
   * that), the most recently started, plus the `pinned` ones: a capture whose conversations are
   * read by windows (conversation-windows.ts) needs only the newest and the chosen one.
   */
  holdNewestConversations(keep: number, pinned: () => Iterable<string>): void;
  /** Applies everything queued now (the scheduler calls this; tests may too). */
  flush(): void;
  setConnection(connection: ConnectionState, error?: string): void;
};

/** Requests a call on the next animation frame; hidden tabs get none, so a timer stands in. */
export function animationFrameScheduler(run: () => void): void {
  if (typeof document !== 'undefined' && document.visibilityState === 'visible') requestAnimationFrame(run);
  else setTimeout(run, 100);
}

export function createLiveStore(schedule: (run: () => void) => void = animationFrameScheduler): LiveStore {
  const index = new ExchangeIndex();
  const view = new ViewIndex();
  const store = create<LiveState>((set) => ({
    index,
    view,
    tick: 0,
    sessions: new Map(),
    conversations: new Map(),
    frames: [],
    framesTick: 0,
    head: 0,
    connection: 'connecting',
    loaded: false,
    setPredicate: (predicate) => {
      view.rebuild(index, predicate);
      set((s) => ({ tick: s.tick + 1 }));
    },
  }));

  let pending: Delta[] = [];
  let scheduled = false;
  let bound: { keep: number; pinned: () => Iterable<string> } | undefined;
  let sessionBound: { keep: number; pinned: () => Iterable<string> } | undefined;
  let conversationBound: { keep: number; pinned: () => Iterable<string> } | undefined;

  /** The sessions map within its bound (the same map when it is within already). */
  const boundSessions = (map: Map<string, SessionSummary>): Map<string, SessionSummary> =>
    sessionBound && map.size > 2 * sessionBound.keep ? newestStarted(map, sessionBound.keep, new Set(sessionBound.pinned())) : map;

  /** The conversations map within its bound (the same map when it is within already). */
  const boundConversations = (map: Map<string, ConversationSummary>): Map<string, ConversationSummary> =>
    conversationBound && map.size > 2 * conversationBound.keep ? newestStarted(map, conversationBound.keep, new Set(conversationBound.pinned())) : map;

  /** Drops the rows beyond the bound; the view is rebuilt from the (bounded) index. */
  const trim = (state: LiveState, next: Partial<LiveState>) => {
    if (!bound || index.size <= 2 * bound.keep) return;
    if (index.trimTo(bound.keep, new Set(bound.pinned())) === 0) return;
    view.rebuild(index);
    next.tick = (next.tick ?? state.tick) + 1;
  };

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const exchanges: ExchangeSummary[] = [];
    const sessions: SessionSummary[] = [];
    const conversations: ConversationSummary[] = [];
    const frames: FrameView[] = [];
    let head = 0;
    let loaded = false;
    for (const d of batch) {
      if (d.exchanges) for (const ex of d.exchanges) exchanges.push(ex);
      if (d.sessions) for (const s of d.sessions) sessions.push(s);
      if (d.conversations) for (const c of d.conversations) conversations.push(c);
      if (d.frames) for (const f of d.frames) frames.push(f);
      if (d.head !== undefined) {
        head = Math.max(head, d.head);
        loaded = true;
      }
    }
    // Sessions first: filters on the client, revision or conversation read them while rows are
    // matched below (a link's `client:` filter matched nothing when rows came before sessions).
    let identityChanged = false;
    if (sessions.length > 0) {
      const map = new Map(store.getState().sessions);
      for (const s of sessions) {
        const held = map.get(s.sessionKey);
        if (!held || sessionIdentity(held) !== sessionIdentity(s)) identityChanged = true;
        map.set(s.sessionKey, s);
      }
      store.setState({ sessions: boundSessions(map) });
    }
    store.setState((state) => {
      const next: Partial<LiveState> = {};
      if (exchanges.length > 0) {
        const change = index.apply(exchanges);
        if (change.added.length > 0 || change.updated.length > 0) {
          view.applyChange(change);
          next.tick = state.tick + 1;
        }
      }
      // A session learned its client (or revision) after its rows were matched: match them again.
      // Rare (once per session), so a full pass is fine.
      if (identityChanged && index.size > 0) {
        view.rebuild(index);
        next.tick = (next.tick ?? state.tick) + 1;
      }
      trim(state, next);
      if (conversations.length > 0) {
        const map = new Map(state.conversations);
        // An older state never replaces a newer one (an API page read after a live update).
        for (const c of conversations) if ((map.get(c.key)?.updatedSeq ?? -1) <= c.updatedSeq) map.set(c.key, c);
        next.conversations = boundConversations(map);
      }
      if (frames.length > 0 && appendFrames(state.frames, frames)) next.framesTick = state.framesTick + 1;
      if (head > state.head) next.head = head;
      if (loaded && !state.loaded) next.loaded = true;
      return next;
    });
  };

  return Object.assign(store, {
    queueDelta(delta: Delta) {
      pending.push(delta);
      if (scheduled) return;
      scheduled = true;
      schedule(flush);
    },
    flush,
    holdNewest(keep: number, pinned: () => Iterable<string>) {
      bound = { keep, pinned };
      store.setState((state) => {
        const next: Partial<LiveState> = {};
        trim(state, next);
        return next;
      });
    },
    holdNewestSessions(keep: number, pinned: () => Iterable<string>) {
      sessionBound = { keep, pinned };
      const held = store.getState().sessions;
      const bounded = boundSessions(held);
      if (bounded !== held) store.setState({ sessions: bounded });
    },
    holdNewestConversations(keep: number, pinned: () => Iterable<string>) {
      conversationBound = { keep, pinned };
      const held = store.getState().conversations;
      const bounded = boundConversations(held);
      if (bounded !== held) store.setState({ conversations: bounded });
    },
    setConnection(connection: ConnectionState, error?: string) {
      store.setState((s) => ({
        connection,
        error,
        downSince: connection === 'down' || connection === 'rejected' ? (s.downSince ?? Date.now()) : connection === 'live' ? undefined : s.downSince,
      }));
    },
  });
}

/** The `keep` most recently started sessions (or conversations) of `map`, and the pinned ones it holds. */
function newestStarted<T extends { firstTs: number }>(map: ReadonlyMap<string, T>, keep: number, pinned: ReadonlySet<string>): Map<string, T> {
  const out = new Map([...map].sort(([, a], [, b]) => b.firstTs - a.firstTs).slice(0, keep));
  for (const key of pinned) {
    const held = map.get(key);
    if (held) out.set(key, held);
  }
  return out;
}

/** What filters read of a session (`client:`, `rev:`, `conversation:`); counts move constantly and are left out. */
function sessionIdentity(s: SessionSummary): string {
  return JSON.stringify([s.clientLabel, s.clientInfo?.name, s.clientInfo?.title, s.userAgent, s.protocolVersion, s.conversationKey]);
}

/**
 * Adds frames in seq order without duplicates; returns whether anything was added. Frames older
 * than the newest one held (an API page read after live frames arrived) are merged in place.
 */
export function appendFrames(into: FrameView[], frames: readonly FrameView[]): boolean {
  let added = false;
  for (const f of frames) {
    const last = into[into.length - 1];
    if (!last || f.seq > last.seq) {
      into.push(f);
      added = true;
      continue;
    }
    let lo = 0;
    let hi = into.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (into[mid]!.seq < f.seq) lo = mid + 1;
      else hi = mid;
    }
    if (into[lo]?.seq === f.seq) continue;
    into.splice(lo, 0, f);
    added = true;
  }
  if (into.length > FRAME_CAP) into.splice(0, into.length - FRAME_CAP);
  return added;
}

export { matchAll };

/** The dashboard's one store. */
export const useLive = createLiveStore();
