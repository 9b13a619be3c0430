/** Typed calls to the dashboard API (same origin; the token goes in the Authorization header). */
import type { AuditReport, CaptureMark, CaptureStatus, ConversationsPage, ConversationsWindowPage, MarksPage, DashboardInfo, DoorRecord, ExchangeDetail, ExchangesPage, ExchangeWindowPage, FramesPage, OtlpStatus, RequestsPage, RequestsWindowPage, SessionsPage, SessionsWindowPage, TapHostsResponse } from '@mcpscope/protocol';

/** The detail route's answer (components still tolerate `diagnostics` missing, as older proxies sent). */
export type ExchangeDetailView = ExchangeDetail;

/** The WebSocket subprotocols: the token travels in one of them, never in the socket's URL. */
export const WS_PROTOCOL = 'mcpscope';
const WS_TOKEN_PREFIX = 'mcpscope.token.';

/** Which evidence pack to write: one exchange's or one conversation's, as Markdown or HTML. */
export type EvidenceQuery = ({ exchange: string } | { conversation: string }) & { format: 'md' | 'html'; replay?: boolean };

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export class ApiClient {
  constructor(private readonly token: string) {}

  /** An authorised request whose Response the caller reads (downloads, uploads). */
  raw(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${this.token}` } });
  }

  /** A JSON request with the token (a body is sent as application/json; caller headers are not kept). */
  private sendJson(path: string, init: RequestInit): Promise<Response> {
    return fetch(path, { ...init, headers: { authorization: `Bearer ${this.token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  }

  /**
   * A JSON request to any route of the API: its parsed answer (undefined when empty), or an
   * ApiError carrying the API's error code and message. Every feature's API calls come here.
   */
  async request<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await this.sendJson(path, init);
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      throw new ApiError(res.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `${res.status} ${res.statusText}`);
    }
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * A JSON request whose refusals are answers the caller shows (a replay's failure): the status
   * and the parsed body (undefined when empty), whatever the status.
   */
  async answer<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
    const res = await this.sendJson(path, init);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** Newest first; pass a page's `nextBefore` as `before` for the next (older) page. */
  exchanges(limit = 200_000, before?: number, signal?: AbortSignal): Promise<ExchangesPage> {
    return this.request(`/api/exchanges?limit=${limit}${before === undefined ? '' : `&before=${before}`}`, signal ? { signal } : {});
  }

  /** Exchanges matching `filter`, searched in the capture (bodies too), newest first. */
  searchExchanges(filter: string, limit: number, before?: number, signal?: AbortSignal): Promise<ExchangesPage> {
    const query = `filter=${encodeURIComponent(filter)}&limit=${limit}${before === undefined ? '' : `&before=${before}`}`;
    return this.request(`/api/exchanges?${query}`, signal ? { signal } : {});
  }

  /**
   * The filtered list in capture order, read by position: from `offset`, the last `limit` rows
   * (`end`), or the rows around one exchange; `from` keeps only rows at or after a sort key.
   */
  exchangeWindow(query: { filter: string; from?: number }, at: { offset: number } | { end: true } | { around: string }, limit: number, signal?: AbortSignal): Promise<ExchangeWindowPage> {
    const where = 'around' in at ? `around=${encodeURIComponent(at.around)}` : 'end' in at ? 'end=1' : `offset=${at.offset}`;
    const from = query.from === undefined ? '' : `&from=${query.from}`;
    return this.request(`/api/exchanges/window?filter=${encodeURIComponent(query.filter)}${from}&${where}&limit=${limit}`, signal ? { signal } : {});
  }

  exchange(id: string, signal?: AbortSignal): Promise<ExchangeDetailView> {
    return this.request(`/api/exchanges/${encodeURIComponent(id)}`, signal ? { signal } : {});
  }

  /** Frames in capture order; with `filter` (the filter language), the frames of matching exchanges. */
  frames(after: number, limit = 5000, signal?: AbortSignal, filter?: string): Promise<FramesPage> {
    return this.request(`/api/frames?after=${after}&limit=${limit}${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`, signal ? { signal } : {});
  }

  /** Door records (every HTTP request at the tap), oldest first; pass `nextAfter` as `after`. */
  requests(after: number, limit = 5000, filter?: string): Promise<RequestsPage> {
    return this.request(`/api/requests?after=${after}&limit=${limit}${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`);
  }

  /** Door records a filter keeps, oldest first, read by position: from `offset`, the last `limit` (`end`), or around one record. */
  requestsWindow(filter: string, at: { offset: number } | { end: true } | { around: number }, limit: number): Promise<RequestsWindowPage> {
    const where = 'around' in at ? `around=${at.around}` : 'end' in at ? 'end=1' : `offset=${at.offset}`;
    return this.request(`/api/requests/window?filter=${encodeURIComponent(filter)}&${where}&limit=${limit}`);
  }

  doorRecord(id: number): Promise<DoorRecord> {
    return this.request(`/api/requests/${id}`);
  }

  sessions(): Promise<SessionsPage> {
    return this.request('/api/sessions');
  }

  /** The sessions of the conversations `keys` (a sidebar page's one-session conversations), in one read. */
  sessionsOfConversations(keys: readonly string[]): Promise<SessionsPage> {
    return this.request(`/api/sessions?conversations=${keys.map(encodeURIComponent).join(',')}`);
  }

  /** Sessions read by position: every one, the most recently started first, or one conversation's (oldest first when asked). */
  sessionWindow(list: { conversation?: string; oldestFirst?: boolean }, at: { offset: number } | { around: string }, limit: number): Promise<SessionsWindowPage> {
    const where = 'around' in at ? `around=${encodeURIComponent(at.around)}` : `offset=${at.offset}`;
    const conversation = list.conversation === undefined ? '' : `&conversation=${encodeURIComponent(list.conversation)}`;
    return this.request(`/api/sessions/window?${where}&limit=${limit}${conversation}${list.oldestFirst ? '&oldest=1' : ''}`);
  }

  conversations(): Promise<ConversationsPage> {
    return this.request('/api/conversations');
  }

  /** Conversations read by position, the most recently started first: from `offset`, or around one (by key). */
  conversationWindow(at: { offset: number } | { around: string }, limit: number): Promise<ConversationsWindowPage> {
    const where = 'around' in at ? `around=${encodeURIComponent(at.around)}` : `offset=${at.offset}`;
    return this.request(`/api/conversations/window?${where}&limit=${limit}`);
  }

  info(): Promise<DashboardInfo> {
    return this.request('/api/info');
  }

  /** Host names the tap accepts for this run, accepted from the dashboard. */
  tapHosts(): Promise<TapHostsResponse> {
    return this.request('/api/tap/hosts');
  }

  /** Accepts a refused Host for this run (the user's click; never called by itself). */
  acceptTapHost(host: string): Promise<TapHostsResponse> {
    return this.request('/api/tap/hosts', { method: 'POST', body: JSON.stringify({ host }) });
  }

  /** The live OTLP export (`--otlp`); `{ enabled: false }` without it. */
  otlp(): Promise<OtlpStatus> {
    return this.request('/api/otlp');
  }

  /** Whether capture is storing (`paused` by a full disk or a read-only file system). */
  capture(): Promise<CaptureStatus> {
    return this.request('/api/capture');
  }

  /** Pauses (or resumes) storing; the tap forwards either way. Answers the new status. */
  setCapturePaused(paused: boolean): Promise<CaptureStatus> {
    return this.request(`/api/capture/${paused ? 'pause' : 'resume'}`, { method: 'POST', body: '{}' });
  }

  marks(): Promise<MarksPage> {
    return this.request('/api/marks');
  }

  addMark(label: string): Promise<CaptureMark> {
    return this.request('/api/marks', { method: 'POST', body: JSON.stringify({ label }) });
  }

  /** The readiness audit over the running capture: every check's verdict, and each host's readiness. */
  audit(signal?: AbortSignal): Promise<AuditReport> {
    return this.request('/api/audit', signal ? { signal } : {});
  }

  /** Sends one sample tools/call through the tap to the demo server (demo mode only). */
  sampleCall(): Promise<{ ok: true }> {
    return this.request('/api/demo/sample-call', { method: 'POST', body: '{}' });
  }

  /**
   * The evidence pack of an exchange or a conversation (GET /api/evidence), as the file the
   * server names; with `replay`, the server first sends the failed call again to the live server.
   */
  async evidence(pack: EvidenceQuery): Promise<{ name: string; blob: Blob }> {
    const q = new URLSearchParams({ format: pack.format });
    if ('exchange' in pack) q.set('exchange', pack.exchange);
    else q.set('conversation', pack.conversation);
    if (pack.replay) q.set('replay', '1');
    const res = await this.raw(`/api/evidence?${q.toString()}`);
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      throw new ApiError(res.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `${res.status} ${res.statusText}`);
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `mcpscope-evidence.${pack.format}`;
    return { name, blob: await res.blob() };
  }

  /** A frame's whole body (detail bodies are cut at DETAIL_RAW_LIMIT). */
  async rawFrame(seq: number, signal?: AbortSignal): Promise<string> {
    const res = await fetch(`/api/frames/${seq}/raw`, { headers: { authorization: `Bearer ${this.token}` }, signal: signal ?? null });
    if (!res.ok) throw new ApiError(res.status, 'http_error', `${res.status} ${res.statusText}`);
    return res.text();
  }

  socketUrl(after: number): string {
    const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${window.location.host}/ws?after=${after}`;
  }

  socketProtocols(): string[] {
    return [WS_PROTOCOL, WS_TOKEN_PREFIX + this.token];
  }
}
