/**
 * What one verify call may take from the live server: time (`--timeout`), bytes (`--max-answer-mb`,
 * everything the call's answers carry: its own body or stream and those of the replies it sent)
 * and server requests answered during it. The call's requests, the replies to server requests
 * included, all run under the scope's one AbortSignal, so the first limit reached ends all of
 * them; so does the end of the whole run (`--max-time`). `end` says which limit ended the call.
 */
import { setMaxListeners } from 'node:events';

export interface VerifyLimits {
  /** How long one call may take, its answer read and every server request during it answered. */
  timeoutMs: number;
  /** Bytes read for one call, over all its answers, before verify stops reading. */
  maxAnswerBytes: number;
  /** Server requests (sampling, elicitation, ping…) answered during one call; later ones are left unanswered. */
  maxServerRequests: number;
}

export const DEFAULT_MAX_ANSWER_MB = 64;
export const DEFAULT_MAX_SERVER_REQUESTS = 100;

export type CallEnd = 'timeout' | 'max-time' | 'too-large';

export class CallScope {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onRunEnd = () => this.stop('max-time');
  end: CallEnd | undefined;
  bytes = 0;
  answered = 0;
  unanswered = 0;

  constructor(
    readonly limits: VerifyLimits,
    private readonly runSignal: AbortSignal | undefined,
  ) {
    // Each request of the call listens on the signal: the call's own and one per answered server
    // request, never more (mayAnswer), so that many listeners are expected, not a leak.
    setMaxListeners(limits.maxServerRequests + 2, this.controller.signal);
    this.timer = setTimeout(() => this.stop('timeout'), limits.timeoutMs);
    if (runSignal?.aborted) this.stop('max-time');
    else runSignal?.addEventListener('abort', this.onRunEnd, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Counts bytes read; past the limit, the call ends. Returns false once it has. */
  read(bytes: number): boolean {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxAnswerBytes) this.stop('too-large');
    return this.end === undefined;
  }

  /** Whether a server request may be answered (counted either way). */
  mayAnswer(): boolean {
    if (this.answered < this.limits.maxServerRequests) {
      this.answered++;
      return true;
    }
    this.unanswered++;
    return false;
  }

  stop(why: CallEnd): void {
    if (this.end !== undefined) return;
    this.end = why;
    this.controller.abort();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.runSignal?.removeEventListener('abort', this.onRunEnd);
  }

  /** Why the call failed, for the row: the limit that ended it. */
  failure(): string | undefined {
    switch (this.end) {
      case 'timeout':
        return `no answer within ${this.limits.timeoutMs / 1000} s`;
      case 'max-time':
        return 'not finished: the run reached --max-time';
      case 'too-large':
        return `answer larger than ${formatMb(this.limits.maxAnswerBytes)} MB, not read whole (--max-answer-mb raises the limit)`;
      default:
        return undefined;
    }
  }
}

function formatMb(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 100) / 100);
}
