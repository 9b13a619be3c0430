/**
 * Requests the server sends to a session mcpscope drives (sampling, elicitation, roots list),
 * during a replay or on the session's own stream. mcpscope is the client on that wire, so nobody
 * else will answer them: each waits here for the dashboard user, and is declined on the user's
 * behalf when its time runs out. Nothing hangs. With answers set for unattended runs
 * (server-answers.ts), the kinds they cover are answered at once instead.
 */
import type { JsonObject, ReplayInput, ReplayInputAnswer, RequestMessage, ServerAnswerDefaults } from '@mcpscope/protocol';
import { fail, ok, type Result } from './replay-errors.js';
import { defaultAnswer } from './server-answers.js';

export const DEFAULT_INPUT_TIMEOUT_MS = 60_000;

/** Sends a JSON-RPC response back to the server, in the session the request came from. */
export type Respond = (response: JsonObject) => Promise<void>;

interface Pending {
  input: ReplayInput;
  request: RequestMessage;
  respond: Respond;
  timer: NodeJS.Timeout;
}

export class ReplayInputs {
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(
    private readonly timeoutMs = DEFAULT_INPUT_TIMEOUT_MS,
    private defaults: ServerAnswerDefaults = {},
  ) {}

  get answers(): ServerAnswerDefaults {
    return this.defaults;
  }

  set answers(defaults: ServerAnswerDefaults) {
    this.defaults = defaults;
  }

  /** Holds `request` for the user, or answers it at once when the defaults cover its kind. */
  add(sessionKey: string, request: RequestMessage, respond: Respond, exchangeId?: string): ReplayInput {
    const key = String(++this.next);
    const input: ReplayInput = { key, sessionKey, method: request.method, expiresAt: Date.now() + this.timeoutMs };
    if (exchangeId !== undefined) input.exchangeId = exchangeId;
    if (request.params !== undefined) input.params = request.params;
    const preset = defaultAnswer(request, this.defaults);
    if (preset !== undefined) {
      void respond(preset === 'decline' ? declineOf(request) : responseTo(request, preset.result)).catch(() => {});
      return input;
    }
    const timer = setTimeout(() => void this.settle(key, { action: 'decline' }), this.timeoutMs);
    timer.unref();
    this.pending.set(key, { input, request, respond, timer });
    return input;
  }

  list(): ReplayInput[] {
    return [...this.pending.values()].map((p) => p.input);
  }

  async answer(key: string, answer: ReplayInputAnswer): Promise<Result<void>> {
    if (!this.pending.has(key)) return fail('input_not_found', 'That server request was already answered, declined or timed out.');
    await this.settle(key, answer);
    return ok(undefined);
  }

  /** Declines everything still waiting (shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pending.keys()].map((key) => this.settle(key, { action: 'decline' })));
  }

  private async settle(key: string, answer: ReplayInputAnswer): Promise<void> {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    clearTimeout(p.timer);
    await p.respond(answer.action === 'answer' ? responseTo(p.request, answer.result) : declineOf(p.request)).catch(() => {});
  }
}

function responseTo(request: RequestMessage, result: unknown): JsonObject {
  return { jsonrpc: '2.0', id: request.id, result: (result ?? {}) as JsonObject };
}

/** Elicitation has a decline result of its own; for the rest, the user's refusal is an error (-1). */
export function declineOf(request: RequestMessage): JsonObject {
  if (request.method === 'elicitation/create') return { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } };
  return { jsonrpc: '2.0', id: request.id, error: { code: -1, message: 'Declined by the mcpscope user (or timed out waiting for an answer).' } };
}
