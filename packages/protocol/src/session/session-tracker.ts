/**
 * Derives session summaries from frames and exchange updates. Pure and incremental.
 */
import type { Frame } from '../model/frame.js';
import { copyJson } from '../model/json-copy.js';
import { isJsonObject, type Message } from '../model/json-rpc.js';
import type { ExchangeStatus, ExchangeSummary } from '../model/exchange.js';
import type { SessionSummary } from './session-summary.js';

const MODERN_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const MODERN_CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';

/** The tracker's state as plain JSON, for CaptureDeriver snapshots. */
export interface SessionTrackerState {
  sessions: SessionSummary[];
  statusOf: [exchangeId: string, status: ExchangeStatus][];
  initializeIds: [sessionKey: string, id: unknown][];
}

export class SessionTracker {
  private readonly sessions = new Map<string, SessionSummary>();
  /** Last known status of each exchange, so counts move when a status changes. */
  private readonly statusOf = new Map<string, ExchangeStatus>();
  private readonly initializeIds = new Map<string, unknown>();
  /** What each session's label was computed from, so it is recomputed only when that changes. */
  private readonly labelledFrom = new WeakMap<SessionSummary, { ua: string | undefined; info: unknown }>();

  /**
   * What the tracker holds, as plain JSON. Labels are not part of it: a restored tracker computes
   * each label again from the same user agent and clientInfo, which gives the same label.
   */
  snapshot(): SessionTrackerState {
    return {
      sessions: [...this.sessions.values()].map((s) => copyJson(s)),
      statusOf: [...this.statusOf],
      initializeIds: copyJson([...this.initializeIds]),
    };
  }

  static restore(state: SessionTrackerState): SessionTracker {
    const t = new SessionTracker();
    for (const s of state.sessions) t.sessions.set(s.sessionKey, copyJson(s));
    for (const [id, status] of state.statusOf) t.statusOf.set(id, status);
    for (const [key, id] of copyJson(state.initializeIds)) t.initializeIds.set(key, id);
    return t;
  }

  /** Stops following an exchange's status (it is settled and will not change again). The owner must call it for every settled row, or this map grows with the capture. */
  forget(exchangeId: string): void {
    this.statusOf.delete(exchangeId);
  }

  get(sessionKey: string): SessionSummary | undefined {
    return this.sessions.get(sessionKey);
  }

  all(): SessionSummary[] {
    return [...this.sessions.values()];
  }

  /** Updates the frame's session; returns it when something changed. */
  ingestFrame(frame: Frame, message: Message): SessionSummary {
    let s = this.sessions.get(frame.sessionKey);
    if (!s) {
      s = { sessionKey: frame.sessionKey, transport: frame.transport, firstTs: frame.ts, lastTs: frame.ts, counts: {} };
      this.sessions.set(frame.sessionKey, s);
    }
    s.lastTs = frame.ts;
    const ua = frame.http?.requestHeaders?.['user-agent'];
    if (frame.direction === 'c2s' && ua && !s.userAgent) s.userAgent = ua;
    const headerVersion = frame.http?.requestHeaders?.['mcp-protocol-version'];
    if (headerVersion && !s.protocolVersion) s.protocolVersion = headerVersion;
    const items = message.kind === 'batch' ? message.items : [message];
    for (const m of items) {
      if (m.kind === 'request' && m.method === 'initialize' && m.params) {
        s.era = 'legacy';
        if (isJsonObject(m.params.clientInfo)) s.clientInfo = m.params.clientInfo;
        if (isJsonObject(m.params.capabilities)) s.clientCapabilities = m.params.capabilities;
        this.initializeIds.set(frame.sessionKey, m.id);
      } else if (m.kind === 'response' && this.initializeIds.get(frame.sessionKey) === m.id && frame.direction === 's2c') {
        if (typeof m.result.protocolVersion === 'string') s.protocolVersion = m.result.protocolVersion;
        if (isJsonObject(m.result.serverInfo)) s.serverInfo = m.result.serverInfo;
        if (isJsonObject(m.result.capabilities)) s.serverCapabilities = m.result.capabilities;
      } else if (m.kind === 'request' && isJsonObject(m.params?._meta)) {
        const meta = m.params._meta;
        if (typeof meta[MODERN_VERSION_META] === 'string') {
          s.era = 'modern';
          s.protocolVersion = meta[MODERN_VERSION_META];
          if (isJsonObject(meta[MODERN_CLIENT_INFO_META])) s.clientInfo = meta[MODERN_CLIENT_INFO_META];
        }
      }
    }
    if (s.userAgent !== this.labelledFrom.get(s)?.ua || s.clientInfo !== this.labelledFrom.get(s)?.info) {
      const label = clientLabel(s);
      if (label !== undefined) s.clientLabel = label;
      this.labelledFrom.set(s, { ua: s.userAgent, info: s.clientInfo });
    }
    return s;
  }

  /**
   * Moves per-status counts as exchanges change; returns the touched sessions. `onMove` hears each
   * move (the conversation tracker moves its counts in step).
   */
  ingestExchanges(updates: ExchangeSummary[], onMove?: (ex: ExchangeSummary, before: ExchangeStatus | undefined, session: SessionSummary) => void): SessionSummary[] {
    const touched = new Set<SessionSummary>();
    for (const ex of updates) {
      const s = this.sessions.get(ex.sessionKey);
      if (!s) continue;
      const before = this.statusOf.get(ex.id);
      if (before === ex.status) continue;
      if (before) s.counts[before] = (s.counts[before] ?? 1) - 1;
      s.counts[ex.status] = (s.counts[ex.status] ?? 0) + 1;
      onMove?.(ex, before, s);
      // Remembered to move the count when the status changes again; the deriver, which knows when
      // a row is settled (pairing may still hold a cancelled, orphan or junk row), calls forget().
      this.statusOf.set(ex.id, ex.status);
      touched.add(s);
    }
    return [...touched];
  }
}

/** "ChatGPT" for OpenAI's connector (User-Agent `openai-mcp/…`), else the client's own name. */
export function clientLabel(s: Pick<SessionSummary, 'userAgent' | 'clientInfo'>): string | undefined {
  if (s.userAgent && /^openai-mcp\//i.test(s.userAgent)) return 'ChatGPT';
  const info = s.clientInfo;
  if (info) {
    const name = typeof info.title === 'string' ? info.title : typeof info.name === 'string' ? info.name : undefined;
    if (name) return typeof info.version === 'string' ? `${name} ${info.version}` : name;
  }
  return s.userAgent;
}
