/**
 * Everything mcpscope derives from frames, in one place: exchanges, sessions, conversations and
 * diagnostics.
 * The proxy's capture pipeline and any rebuild-from-frames run this same code, so a rebuild gives
 * the same tables as live capture did.
 *
 * Schema validation is injected (`validator`, from `@mcpscope/protocol/validate`) so that this
 * module stays browser-safe; without one, every check except schema and tool-schema validation
 * still runs.
 */
import { cutEnvelope } from '../model/cut-envelope.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { hostRuleBreak } from '../diagnostics/host-rule-breaks.js';
import type { ValidatorPort } from '../diagnostics/validator-port.js';
import { isTerminal, type ExchangeSummary } from '../model/exchange.js';
import type { Frame } from '../model/frame.js';
import { copyJson } from '../model/json-copy.js';
import { classifyText, idKey, isJsonObject, type JsonObject, type Message } from '../model/json-rpc.js';
import { ExchangeTracker } from '../pairing/exchange-tracker.js';
import type { TrackerState } from '../pairing/tracker-state.js';
import type { SessionSummary } from '../session/session-summary.js';
import { SessionTracker, type SessionTrackerState } from '../session/session-tracker.js';
import { DEFAULT_REVISION, NOTIFICATIONS, isRevision, type Revision } from '../revisions/revisions.js';
import { batchFindings, capabilityFindings, headerFindings, nameFindings, schemaFindings } from './frame-checks.js';
import { joinPath } from '../model/json-path.js';
import { targetOf } from '../model/target.js';
import { type Finding, type ItemContext, type Single } from './item-context.js';
import { lintFindings } from './lints.js';
import { MrtrChains, type MrtrChainsState } from './mrtr-chains.js';
import { ToolRegistry, type ToolRegistryState } from './tool-registry.js';
import type { ConversationSummary } from '../conversation/conversation-summary.js';
import { CHATGPT_TOOL_LIST, ConversationTracker, type ConversationTrackerState } from '../conversation/conversation-tracker.js';
import type { ConversationBounds } from '../conversation/conversation-book.js';
import { widgetFindings } from './widget-checks.js';
import { isAuthorizationAnswer } from '../model/authorization-answer.js';

/** The params of a custom notification that may hold the id of the request it answers. */
const REQUEST_ID_FIELDS = ['id', 'requestId', 'callId'] as const;

/** What one frame changed. Conversations are taken per batch: `CaptureDeriver.takeConversations()`. */
export interface Derived {
  exchanges: ExchangeSummary[];
  sessions: SessionSummary[];
  diagnostics: Diagnostic[];
}

export interface CaptureDeriverDeps {
  validator?: ValidatorPort;
  /** False derives no conversations (the benchmark's baseline of what they cost); on by default. */
  conversations?: boolean;
  /** How many conversations and sessions the conversation tracker keeps (DEFAULT_CONVERSATION_BOUNDS unless given). */
  conversationBounds?: ConversationBounds;
}

const MODERN_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

interface RequestInfo {
  method: string;
  params?: JsonObject;
  target?: string;
}

type Extras = Pick<ExchangeSummary, 'chainOf' | 'inputRequired' | 'brokeHostRules'>;

/**
 * Bump when what a snapshot holds, or what it means to the code that continues from it, changes:
 * a snapshot of another version is never restored (the capture is replayed from frames instead).
 */
export const DERIVER_STATE_VERSION = 2;

/** Everything a deriver knows, as plain JSON: `CaptureDeriver.restore` continues from it. */
export interface DeriverState {
  version: number;
  exchanges: TrackerState;
  sessions: SessionTrackerState;
  tools: ToolRegistryState;
  requests: [exchangeId: string, RequestInfo][];
  counts: [exchangeId: string, number][];
  extras: [exchangeId: string, Extras][];
  chains: MrtrChainsState['chains'];
  rootOf: MrtrChainsState['rootOf'];
  conversations: ConversationTrackerState | null;
}

export class CaptureDeriver {
  private readonly exchanges: ExchangeTracker;
  private readonly sessions: SessionTracker;
  private readonly tools: ToolRegistry;
  private readonly validator: ValidatorPort | undefined;
  /** Requests still in flight, by exchange id: what their answers are validated against. */
  private readonly requests: Map<string, RequestInfo>;
  /** Diagnostics counted per open exchange, and fields the tracker does not know about. */
  private readonly counts: Map<string, number>;
  private readonly extras: Map<string, Extras>;
  /** 2026-07-28 MRTR: retries linked to the exchange that started their chain. */
  private readonly chains: MrtrChains;
  private readonly conversations: ConversationTracker | undefined;

  /** `state` is for `restore`, which checks it first. */
  constructor(deps: CaptureDeriverDeps = {}, state?: DeriverState) {
    this.validator = deps.validator;
    this.exchanges = state ? ExchangeTracker.restore(state.exchanges) : new ExchangeTracker();
    this.sessions = state ? SessionTracker.restore(state.sessions) : new SessionTracker();
    this.tools = state ? ToolRegistry.restore(state.tools, deps.validator) : new ToolRegistry(deps.validator);
    this.requests = new Map(copyJson(state?.requests ?? []));
    this.counts = new Map(state?.counts ?? []);
    this.extras = new Map(copyJson(state?.extras ?? []));
    this.chains = new MrtrChains(state);
    if (deps.conversations !== false) this.conversations = new ConversationTracker(state?.conversations ?? undefined, deps.conversationBounds);
  }

  /**
   * What this deriver knows, as plain JSON (safe to keep and to serialize): a deriver restored
   * from it derives from the next frame on exactly what this one would. Its size is bounded by
   * what is in flight and by the sessions seen, not by how much was captured.
   */
  snapshot(): DeriverState {
    return {
      version: DERIVER_STATE_VERSION,
      exchanges: this.exchanges.snapshot(),
      sessions: this.sessions.snapshot(),
      tools: this.tools.snapshot(),
      requests: copyJson([...this.requests]),
      counts: [...this.counts],
      extras: copyJson([...this.extras]),
      ...this.chains.state(),
      conversations: this.conversations?.snapshot() ?? null,
    };
  }

  /** A deriver that continues from `state`. Throws when the state is of another version or malformed. */
  static restore(state: unknown, deps: CaptureDeriverDeps = {}): CaptureDeriver {
    const s = state as Partial<DeriverState> | null;
    if (typeof s !== 'object' || s === null || s.version !== DERIVER_STATE_VERSION) {
      throw new TypeError(`deriver state: not version ${DERIVER_STATE_VERSION}`);
    }
    return new CaptureDeriver(deps, s as DeriverState);
  }

  /** Derives what one frame changes. Summaries returned are copies, safe to keep. */
  ingest(frame: Frame, message: Message = classifyText(frame.raw)): Derived {
    const sessions: SessionSummary[] = [];
    const session = frame.kind === 'data' ? this.sessions.ingestFrame(frame, message) : undefined;
    if (session) sessions.push(session);
    const conversations = this.conversations;
    conversations?.onFrame(frame, session);
    const items: Single[] = frame.kind !== 'data' ? [] : message.kind === 'batch' ? message.items.map(flatten) : [message];
    const sender = frame.direction === 'c2s' ? 'client' : 'server';
    const batch = message.kind === 'batch';
    const rowIdOf = (i: number) => (batch ? `${frame.seq}.${i}` : String(frame.seq));
    // Before pairing: which ids are reused while in flight, and which requests the answers answer.
    const reused = new Set<number>();
    const answered = new Map<number, RequestInfo & { exchangeId: string }>();
    const idsInFrame = new Set<string>();
    items.forEach((item, i) => {
      if (item.kind === 'request') {
        const id = idKey(item.id);
        if (this.exchanges.pendingRequest(frame.sessionKey, sender, item.id) || idsInFrame.has(id)) reused.add(i);
        idsInFrame.add(id);
      }
      if ((item.kind === 'response' || item.kind === 'error') && item.id !== null) {
        const requester = sender === 'client' ? 'server' : 'client';
        const pending = this.exchanges.pendingRequest(frame.sessionKey, requester, item.id);
        const info = pending && this.requests.get(pending.id);
        if (pending && info) answered.set(i, { ...info, exchangeId: pending.id });
      }
      conversations?.placeExchange(rowIdOf(i), frame, item, session);
    });
    const exchanges = this.exchanges.ingest(frame, message);
    for (const id of this.exchanges.takeEvicted()) this.forget(id);
    for (const s of this.sessions.ingestExchanges(exchanges, conversations && ((ex, before, s) => conversations.onStatus(ex, before, s)))) if (!sessions.includes(s)) sessions.push(s);

    const diagnostics: Diagnostic[] = [];
    /** The answer item each exchange settled by this frame got (the era lane reads results). */
    const answers = new Map<string, Single>();
    if (batch && frame.kind === 'data') {
      const rev = this.revisionOf(items[0], session);
      for (const f of batchFindings(rev)) diagnostics.push(toDiagnostic(frame, undefined, f));
    }
    items.forEach((item, i) => {
      const rowId = rowIdOf(i);
      const exchange = findExchange(exchanges, item, rowId, frame.seq);
      const request = answered.get(i);
      const ctx: ItemContext = {
        frame,
        item,
        base: batch ? `$[${i}]` : '$',
        sender,
        ...(session ? { session } : {}),
        ...(request ? { request } : {}),
        ...(exchange ? { exchangeId: exchange.id } : {}),
      };
      const revision = this.revisionOf(item, session);
      if (revision) ctx.revision = revision;
      if (item.kind === 'notification' && !Object.hasOwn(NOTIFICATIONS, item.method)) {
        const named = this.requestNamedBy(frame.sessionKey, sender, item.params);
        if (named) ctx.namesRequest = named;
      }
      const findings = this.check(ctx, reused.has(i));
      if (item.kind === 'request' && exchange) this.requests.set(exchange.id, requestInfo(item));
      if (exchange) this.link(ctx, exchange);
      if (exchange && (item.kind === 'response' || item.kind === 'error')) answers.set(exchange.id, item);
      for (const f of findings) diagnostics.push(toDiagnostic(frame, exchange?.id, f));
      if (exchange && findings.length > 0) {
        this.counts.set(exchange.id, (this.counts.get(exchange.id) ?? 0) + findings.length);
        const broke = hostRuleBreak(findings);
        if (broke) this.extras.set(exchange.id, { ...this.extras.get(exchange.id), brokeHostRules: broke.code });
      }
    });
    if (conversations) {
      for (const ex of exchanges) conversations.onUpdated(ex, frame, message, answers, session);
      for (const s of conversations.takeMovedSessions()) if (!sessions.includes(s)) sessions.push(s);
    }
    return { exchanges: exchanges.map((ex) => this.finish(ex)), sessions: sessions.map((s) => ({ ...s, counts: { ...s.counts } })), diagnostics };
  }

  /**
   * Conversations changed since the last call (copies, safe to keep; each with the seq of the
   * last frame that changed it), those the deriver no longer keeps included: every conversation a
   * session or exchange names is handed out by the take after the frame that named it. Take them
   * once per batch of frames: they change with nearly every frame, and only the latest state is
   * worth a copy. What waits for a take is only what changed since the last: a caller that
   * writes no conversations still takes them now and then, and drops them.
   */
  takeConversations(): ConversationSummary[] {
    return this.conversations?.takeConversations() ?? [];
  }

  session(sessionKey: string): SessionSummary | undefined {
    return this.sessions.get(sessionKey);
  }

  /** §1.8: a 2026-07-28 request's own _meta, else the session's negotiated version, else 2025-03-26. */
  private revisionOf(item: Single | undefined, session: SessionSummary | undefined): Revision | undefined {
    if (item?.kind === 'request' || item?.kind === 'notification') {
      const meta = item.params?._meta;
      const v = isJsonObject(meta) ? meta[MODERN_VERSION_META] : undefined;
      if (typeof v === 'string') return isRevision(v) ? v : undefined;
      if (item.method === 'initialize' && !session?.serverInfo) {
        const asked = item.params?.protocolVersion;
        return isRevision(asked) ? asked : DEFAULT_REVISION;
      }
    }
    const negotiated = session?.protocolVersion;
    if (negotiated !== undefined) return isRevision(negotiated) ? negotiated : undefined;
    return DEFAULT_REVISION;
  }

  private check(ctx: ItemContext, reused: boolean): Finding[] {
    const { item, frame } = ctx;
    const out: Finding[] = [];
    const cut = frame.http?.cut;
    if (item.kind === 'invalid' && cut && cutEnvelope(frame.raw)) {
      // The head reads as a JSON-RPC answer: only its size is known to be out of the ordinary.
      out.push({ code: 'too-large-to-keep', severity: 'info', path: ctx.base, message: `This answer was ${cut.size} bytes, too large to keep whole: ${item.reason}. It was forwarded whole; the part not kept was not checked.` });
    } else if (item.kind === 'invalid' && frame.direction === 's2c' && isAuthorizationAnswer(frame.http, frame.raw)) {
      // An OAuth challenge (401 + WWW-Authenticate, an OAuth error body) is HTTP, not JSON-RPC: nothing to find in it.
      return out;
    } else if (item.kind === 'invalid') {
      out.push({ code: 'invalid-message', severity: 'error', path: ctx.base, message: `This frame is not a valid JSON-RPC message: ${item.reason}. It was forwarded unchanged.` });
    }
    if (reused && item.kind === 'request') {
      out.push({ code: 'id-reused-in-flight', severity: 'error', path: joinPath(ctx.base, '$.id'), message: `Request id ${JSON.stringify(item.id)} is already in use by a request from the ${ctx.sender} that has not been answered. Ids must be unique among a sender's outstanding requests; answers can no longer be told apart.` });
    }
    // First: a call that names the host's conversation may move its session to that conversation.
    if (this.conversations) out.push(...this.conversations.onClientMessage(ctx, ctx.exchangeId));
    out.push(...schemaFindings(ctx, this.validator), ...nameFindings(ctx), ...capabilityFindings(ctx), ...headerFindings(ctx), ...lintFindings(ctx));
    if (item.kind === 'request' && item.method === 'tools/call') {
      const chatgpt = ctx.session?.clientLabel === 'ChatGPT';
      out.push(...this.tools.checkCall(frame.sessionKey, ctx.base, item.params, this.conversations?.toolsSession(frame.sessionKey), chatgpt ? CHATGPT_TOOL_LIST : undefined));
    }
    if (item.kind === 'response' && ctx.request?.method === 'tools/list') {
      this.tools.onToolsList(frame.sessionKey, ctx.request.params, item.result);
      this.conversations?.onToolsListed(frame.sessionKey, ctx.exchangeId);
    }
    if (item.kind === 'notification' && ctx.sender === 'server') this.conversations?.onServerNotification(frame, item.method, ctx.exchangeId);
    if (item.kind === 'response' && ctx.request?.method === 'tools/call' && item.result.resultType !== 'input_required') {
      const scope = this.conversations?.shapeScope(frame.sessionKey);
      out.push(...this.tools.checkResult(frame.sessionKey, ctx.base, ctx.request.target, item.result, scope === undefined ? frame.sessionKey : `conversation:${scope}`));
    }
    out.push(...widgetFindings(ctx, (name) => this.tools.tool(frame.sessionKey, name)));
    return out;
  }

  /** A request of the other side, still in flight, whose id a non-spec notification's params hold. */
  private requestNamedBy(sessionKey: string, sender: 'client' | 'server', params: JsonObject | undefined): ItemContext['namesRequest'] {
    if (!params) return undefined;
    const requester = sender === 'client' ? 'server' : 'client';
    for (const field of REQUEST_ID_FIELDS) {
      const id = params[field];
      if (typeof id !== 'string' && typeof id !== 'number') continue;
      const pending = this.exchanges.pendingRequest(sessionKey, requester, id);
      const info = pending && this.requests.get(pending.id);
      if (pending && info) return { exchangeId: pending.id, method: info.method, field };
    }
    return undefined;
  }

  /** 2026-07-28 multi-round-trip requests: an input_required answer and the retry that carries its requestState (mrtr-chains.ts). */
  private link(ctx: ItemContext, exchange: ExchangeSummary): void {
    const { item, frame } = ctx;
    if (item.kind === 'response' && item.result.resultType === 'input_required' && ctx.request) {
      this.extras.set(exchange.id, { ...this.extras.get(exchange.id), inputRequired: true });
      const state = typeof item.result.requestState === 'string' ? item.result.requestState : '';
      this.chains.awaitRetry({ sessionKey: frame.sessionKey, method: ctx.request.method, target: ctx.request.target, state }, exchange.id);
    }
    if (item.kind === 'request' && item.params && ('requestState' in item.params || 'inputResponses' in item.params)) {
      const state = typeof item.params.requestState === 'string' ? item.params.requestState : '';
      const round = { sessionKey: frame.sessionKey, method: item.method, target: requestInfo(item).target, state };
      const root = this.chains.retried(round, exchange.id, (first) => this.extras.get(first)?.chainOf);
      if (root !== undefined) this.extras.set(exchange.id, { ...this.extras.get(exchange.id), chainOf: root });
    }
  }

  /** Applies what the deriver knows to a tracker copy; forgets it once the exchange is settled. */
  private finish(out: ExchangeSummary): ExchangeSummary {
    // `out` is already the tracker's private copy: annotate it in place rather than copy again.
    const ex = out;
    out.diagnostics = this.counts.get(ex.id) ?? 0;
    const conversation = this.conversations?.exchangeConversation(ex.id);
    if (conversation !== undefined) out.conversation = conversation;
    const extras = this.extras.get(ex.id);
    if (extras) Object.assign(out, extras);
    // A cancelled request still waits for its answer, an orphan for its request; once the tracker
    // lets go of them (answered, paired, or evicted) they are settled too.
    // So is junk (or a malformed answer) that may still get the server's id-null answer (or the
    // tap's word that its body broke): its diagnostics count and session count must carry over.
    const waiting =
      ((ex.status === 'cancelled' || ex.status === 'orphan') && this.exchanges.holds(ex)) || (ex.status === 'invalid' && this.exchanges.awaitsMore(ex.id));
    if (isTerminal(ex.status) && !waiting) {
      this.forget(ex.id);
      if (!out.inputRequired) this.chains.settled(ex.id);
    }
    return out;
  }

  private forget(id: string): void {
    this.counts.delete(id);
    this.extras.delete(id);
    this.requests.delete(id);
    this.sessions.forget(id);
    this.conversations?.forget(id);
  }
}

function flatten(item: Message): Single {
  return item.kind === 'batch' ? { kind: 'invalid', reason: 'a batch may not contain another batch' } : item;
}

function requestInfo(item: Extract<Single, { kind: 'request' }>): RequestInfo {
  const info: RequestInfo = { method: item.method };
  if (item.params) info.params = item.params;
  const target = targetOf(item.method, item.params);
  if (target !== undefined) info.target = target;
  return info;
}

function findExchange(exchanges: ExchangeSummary[], item: Single, rowId: string, seq: number): ExchangeSummary | undefined {
  switch (item.kind) {
    case 'request':
      return exchanges.find((e) => e.id === rowId) ?? exchanges.find((e) => e.requestSeq === seq && e.rpcId === item.id);
    case 'response':
    case 'error':
      return exchanges.find((e) => e.responseSeq === seq && (item.id === null || e.rpcId === item.id));
    case 'notification':
      return exchanges.find((e) => e.id === rowId) ?? exchanges.find((e) => e.frameSeqs.includes(seq));
    case 'invalid':
      return exchanges.find((e) => e.id === rowId) ?? exchanges.find((e) => e.responseSeq === seq);
  }
}

function toDiagnostic(frame: Frame, exchangeId: string | undefined, f: Finding): Diagnostic {
  const d: Diagnostic = { frameSeq: frame.seq, code: f.code, severity: f.severity, message: f.message };
  if (exchangeId !== undefined) d.exchangeId = exchangeId;
  if (f.path !== undefined) d.path = f.path;
  return d;
}
