/**
 * Plays what the captured server said on its own (cassette-pushes.ts) to a live mock session:
 * each push after the live counterpart of its trigger (the call the live request matched, the
 * k-th live client notification of a method for the k-th captured one, the live reply to an
 * earlier push, or the session's first match), at its captured delay divided by `speed` (0: at
 * once), on the session's own stream. Pushes of one trigger go in capture order, one after the
 * other.
 *
 * A push that is a request gets an id fresh in the session; the live client's reply is paired
 * with it like any answer and fires the pushes that followed the captured reply. No reply, or
 * one of another kind than captured (an error for a result): logged, and the replay goes on.
 * `notifications/resources/updated` goes only to a session that subscribed to its URI: one that
 * comes before the live subscribe waits for it (sent after the subscribe's answer), and is
 * dropped by an unsubscribe.
 */
import { isJsonObject, triggerKey, type Cassette, type CassettePush, type JsonObject } from '@mcpscope/protocol';
import type { MockSession } from './mock-sessions.js';
import { scaled, sleepUntil } from './mock-timing.js';

interface Queued {
  sessionKey: string;
  push: CassettePush;
}

/** Every push of a cassette by the key of its trigger, and client notifications to map live ones. */
export class PushIndex {
  private readonly byTrigger = new Map<string, Queued[]>();
  /** Per captured session: its client notifications' exchange ids by method, in order. */
  private readonly notifications = new Map<string, Map<string, string[]>>();

  constructor(cassette: Cassette) {
    for (const session of cassette.sessions) {
      for (const push of session.pushes) {
        const key = triggerKey(session.sessionKey, push.after);
        const list = this.byTrigger.get(key);
        if (list) list.push({ sessionKey: session.sessionKey, push });
        else this.byTrigger.set(key, [{ sessionKey: session.sessionKey, push }]);
      }
      const byMethod = new Map<string, string[]>();
      for (const step of session.steps) {
        if (step.kind !== 'notification') continue;
        const list = byMethod.get(step.notification.method);
        if (list) list.push(step.notification.exchangeId);
        else byMethod.set(step.notification.method, [step.notification.exchangeId]);
      }
      this.notifications.set(session.sessionKey, byMethod);
    }
  }

  get size(): number {
    return this.byTrigger.size;
  }

  pushesAfter(key: string): readonly Queued[] {
    return this.byTrigger.get(key) ?? [];
  }

  /** The captured exchange of the `k`-th client notification `method` of a captured session. */
  notification(sessionKey: string, method: string, k: number): string | undefined {
    return this.notifications.get(sessionKey)?.get(method)?.[k];
  }
}

export interface PushOptions {
  speed: number;
  replyTimeoutMs: number;
  log(line: string): void;
}

export class PushPlayer {
  private readonly notified = new Map<string, number>();
  private readonly subscribed = new Set<string>();
  /** Resource updates that came before the live subscribe to their URI. */
  private readonly held = new Map<string, Queued[]>();
  private started = false;

  constructor(
    private readonly index: PushIndex,
    private readonly session: MockSession,
    private readonly options: PushOptions,
  ) {}

  /** A live request matched captured call `exchangeId`, arrived at `at`. */
  called(exchangeId: string, at: number): void {
    const captured = this.session.cursor.capturedSession;
    if (!this.started && captured !== undefined) {
      this.started = true;
      this.fire(triggerKey(captured, { kind: 'start' }), at);
    }
    this.fire(triggerKey('', { kind: 'call', exchangeId }), at);
  }

  /** The live client sent notification `method`. */
  notifiedOf(method: string, at: number): void {
    const captured = this.session.cursor.capturedSession;
    if (captured === undefined) return;
    const k = this.notified.get(method) ?? 0;
    this.notified.set(method, k + 1);
    const exchangeId = this.index.notification(captured, method, k);
    if (exchangeId !== undefined) this.fire(triggerKey('', { kind: 'notification', exchangeId }), at);
  }

  /** A live subscribe to `uri` was answered: the updates waiting for it go now. */
  subscribedTo(uri: string): void {
    this.subscribed.add(uri);
    const waiting = this.held.get(uri) ?? [];
    this.held.delete(uri);
    void this.play(waiting, performance.now(), true);
  }

  unsubscribedFrom(uri: string): void {
    this.subscribed.delete(uri);
    this.held.delete(uri);
  }

  private fire(key: string, at: number): void {
    const queued = this.index.pushesAfter(key);
    if (queued.length > 0) void this.play(queued, at, false).catch((err: unknown) => this.options.log(`! replaying what the server sent on its own failed: ${(err as Error).message}`));
  }

  private async play(queued: readonly Queued[], at: number, now: boolean): Promise<void> {
    const gone = this.session.ended;
    for (const item of queued) {
      if (!now) await sleepUntil(at + scaled(item.push.offsetMs, this.options.speed), gone);
      if (gone.aborted) return;
      const uri = updatedUri(item.push);
      if (uri !== undefined && !this.subscribed.has(uri)) {
        const list = this.held.get(uri);
        if (list) list.push(item);
        else this.held.set(uri, [item]);
        continue;
      }
      await this.deliver(item);
    }
  }

  private async deliver({ sessionKey, push }: Queued): Promise<void> {
    if (push.kind === 'notification') return this.session.push(push.message);
    const id = this.session.serverRequestId();
    const replied = this.session.awaitReply(id, AbortSignal.any([this.session.ended, AbortSignal.timeout(this.options.replyTimeoutMs)]));
    this.session.push({ ...push.message, id });
    const reply = await replied;
    if (this.session.ended.aborted) return;
    if (!reply) this.options.log(`· no reply to ${push.method} (sent on the session's stream) within ${this.options.replyTimeoutMs} ms; going on`);
    else if (push.reply && 'error' in reply !== 'error' in push.reply.message) this.options.log(`· the client answered ${push.method} with ${'error' in reply ? 'an error' : 'a result'}, the captured client with ${'error' in reply ? 'a result' : 'an error'}; going on`);
    this.fire(triggerKey(sessionKey, { kind: 'reply', push: push.index }), performance.now());
  }
}

function updatedUri(push: CassettePush): string | undefined {
  if (push.method !== 'notifications/resources/updated') return undefined;
  const params = push.message.params;
  return isJsonObject(params) && typeof params.uri === 'string' ? params.uri : undefined;
}

/** The URI a live `resources/subscribe` or `unsubscribe` names. */
export function subscriptionUri(params: JsonObject | undefined): string | undefined {
  return typeof params?.uri === 'string' ? params.uri : undefined;
}
