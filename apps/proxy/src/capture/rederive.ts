/**
 * Re-deriving: feeding frames through a deriver, per tick (the pipeline) and page by page from
 * the store (warm-up after open, and rebuild). Not the user's edit-and-replay (replay/).
 */
import { classifyText, rawLength, type CaptureDeriver, type ConversationSummary, type Derived, type Diagnostic, type ExchangeSummary, type Frame, type Message, type SessionSummary } from '@mcpscope/protocol';
import type { CaptureReader } from './capture-reader.js';
import { SKELETON_FROM_CHARS, frameSkeleton } from './frame-skeleton.js';

/** Frames read per page when re-deriving from the store (warm-up and rebuild). */
export const REDERIVE_PAGE = 5000;

/** What a batch of frames changed: rows merged (last state wins), and the conversations they touched. */
export type DerivedBatch = Derived & { conversations: ConversationSummary[] };

/** A batch that derived nothing (a tick written underived). */
export const NOTHING_DERIVED: DerivedBatch = { exchanges: [], sessions: [], diagnostics: [], conversations: [] };

/** Whether a batch derived any row (else a refused write has nothing to leave out). */
export function hasRows(derived: DerivedBatch): boolean {
  return derived.exchanges.length + derived.sessions.length + derived.diagnostics.length + derived.conversations.length > 0;
}

/**
 * Runs frames through the deriver, merging what changed (last state of each row wins). `messages`
 * has what large frames stored by the writer thread read as (from their skeletons).
 */
export function derive(deriver: CaptureDeriver, frames: readonly Frame[], messages?: WeakMap<Frame, Message>): DerivedBatch {
  const exchanges = new Map<string, ExchangeSummary>();
  const sessions = new Map<string, SessionSummary>();
  const diagnostics: Diagnostic[] = [];
  for (const frame of frames) {
    // A cut body is not the message that was sent: reported as such, never read as one.
    const cut = frame.http?.cut;
    const derived = cut ? deriver.ingest(frame, cutMessage(frame, cut.size)) : deriver.ingest(frame, messages?.get(frame) ?? largeFrameMessage(frame));
    for (const ex of derived.exchanges) exchanges.set(ex.id, ex);
    for (const s of derived.sessions) sessions.set(s.sessionKey, s);
    for (const d of derived.diagnostics) diagnostics.push(d);
  }
  return { exchanges: [...exchanges.values()], sessions: [...sessions.values()], diagnostics, conversations: deriver.takeConversations() };
}

/** What a cut frame reads as (counted only for those: a byte count walks the whole text). */
function cutMessage(frame: Frame, size: number): Message {
  const sse = frame.transport === 'sse';
  const kept = sse ? frame.raw.length : Buffer.byteLength(frame.raw);
  return { kind: 'invalid', reason: `too large to keep whole: the first ${kept} of ${size} ${sse ? 'characters' : 'bytes'} were kept` };
}

/** Feeds every stored frame after `from` (through `until`), in seq order and page by page, through `deriver`. */
export function rederiveInto(
  store: CaptureReader,
  deriver: CaptureDeriver,
  onPage: (frames: Frame[], derived: DerivedBatch) => void,
  from = 0,
  until = Number.MAX_SAFE_INTEGER,
): number {
  let after = from;
  let total = 0;
  for (;;) {
    let frames = store.rawFramesAfter(after, REDERIVE_PAGE);
    if (frames.length > 0 && frames[frames.length - 1]!.seq > until) frames = frames.filter((f) => f.seq <= until);
    if (frames.length === 0) return total;
    onPage(frames, derive(deriver, frames));
    after = frames[frames.length - 1]!.seq;
    total += frames.length;
  }
}

/**
 * A large frame's message, read from its skeleton (frame-skeleton.ts); undefined for the others
 * (the deriver parses them). A skeleton that does not read as JSON-RPC says nothing the whole body
 * would not: the body is parsed whole then, so the reason given is the body's own.
 */
function largeFrameMessage(frame: Frame): Message | undefined {
  if (frame.kind !== 'data' || rawLength(frame) < SKELETON_FROM_CHARS) return undefined;
  const skeleton = frameSkeleton(frame.raw);
  if (skeleton === undefined) return undefined;
  const message = classifyText(skeleton);
  return message.kind === 'invalid' ? undefined : message;
}
