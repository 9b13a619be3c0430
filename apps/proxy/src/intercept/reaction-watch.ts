/**
 * What the client did after a rule acted: the client messages that follow in the same session (or
 * in a session it opened again with `initialize`), for REACTION_WINDOW_MS, told as a reaction card
 * (retried the same call, re-initialized, listed tools again, called another tool, cancelled).
 * "Nothing" is a final card with no events.
 */
import { classifyText, targetOf, type FrameInput, type JsonRpcId } from '@mcpscope/protocol';
import type { Reaction, ReactionKind } from './intercept-store.js';

/** How long after an intervention the client's messages count as its reaction. */
export const REACTION_WINDOW_MS = 30_000;

export interface Watched {
  interventionId: number;
  sessionKeys: Set<string>;
  method: string;
  target: string | undefined;
  rpcId: JsonRpcId | undefined;
  startTs: number;
  reaction: Reaction;
}

export class ReactionWatch {
  private readonly watching: Watched[] = [];

  constructor(
    private readonly save: (id: number, reaction: Reaction) => void,
    private readonly now: () => number,
  ) {}

  get active(): boolean {
    return this.watching.length > 0;
  }

  /**
   * Starts watching when the rule acts (a delayed or paused request's client may cancel before the
   * rule is done); the card is saved once `recorded` names the intervention it belongs to.
   */
  watch(entry: Omit<Watched, 'reaction' | 'interventionId'>): Watched {
    const watched: Watched = { ...entry, interventionId: -1, reaction: { events: [], final: false } };
    this.watching.push(watched);
    const timer = setTimeout(() => this.close(watched), REACTION_WINDOW_MS);
    timer.unref?.();
    return watched;
  }

  /** The intervention the watch belongs to is stored: its card is saved from now on. */
  recorded(watched: Watched, interventionId: number): void {
    watched.interventionId = interventionId;
    this.save(interventionId, watched.reaction);
  }

  /** Sees a recorded frame (only client frames of watched sessions count). */
  saw(frame: FrameInput): void {
    if (frame.direction !== 'c2s' || frame.kind !== 'data') return;
    const message = classifyText(frame.raw);
    if (message.kind !== 'request' && message.kind !== 'notification') return;
    for (const w of this.watching) {
      const inSession = w.sessionKeys.has(frame.sessionKey);
      const kind = reactionOf(w, message, inSession);
      if (kind === undefined) continue;
      if (message.kind === 'request' && w.rpcId !== undefined && message.id === w.rpcId && inSession) continue; // the intercepted request itself
      if (message.method === 'initialize') w.sessionKeys.add(frame.sessionKey);
      const after = Math.max(0, Math.round(frame.ts - w.startTs));
      const seen = w.reaction.events.find((e) => e.kind === kind);
      if (seen) seen.count++;
      else w.reaction.events.push({ kind, afterMs: after, count: 1, ...(kind === 'called-another-tool' || kind === 'other-request' ? { detail: targetOf(message.method, message.params) ?? message.method } : {}) });
      if (w.interventionId !== -1) this.save(w.interventionId, w.reaction);
    }
  }

  /** Ends every watch now (the proxy is closing). */
  closeAll(): void {
    for (const w of [...this.watching]) this.close(w);
  }

  private close(w: Watched): void {
    const at = this.watching.indexOf(w);
    if (at === -1) return;
    this.watching.splice(at, 1);
    w.reaction.final = true;
    if (w.interventionId !== -1) this.save(w.interventionId, w.reaction);
  }
}

type ClientMessage = Extract<ReturnType<typeof classifyText>, { kind: 'request' | 'notification' }>;

function reactionOf(w: Watched, message: ClientMessage, inSession: boolean): ReactionKind | undefined {
  // A new session by the same client starts with initialize, before it has a key the watch knows.
  if (message.method === 'initialize') return 're-initialized';
  if (!inSession) return undefined;
  if (message.method === 'notifications/cancelled') {
    const requestId = message.params?.requestId;
    return w.rpcId !== undefined && requestId === w.rpcId ? 'cancelled' : undefined;
  }
  if (message.kind === 'notification') return undefined;
  const target = targetOf(message.method, message.params);
  if (message.method === w.method && target === w.target) return 'retried';
  if (message.method === 'tools/list') return 'listed-tools';
  if (message.method === 'tools/call') return 'called-another-tool';
  return 'other-request';
}
