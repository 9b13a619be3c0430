/**
 * 2026-07-28 multi-round-trip requests (MRTR): a request answered with `resultType:
 * "input_required"` is retried by the client with the answer's `requestState` (and its
 * `inputResponses`). The retry is a new exchange; this links every retry of a chain to the
 * exchange that started it (`chainOf`), however many rounds it takes.
 *
 * Bounded: answers still waiting for their retry are forgotten, oldest first, past
 * MAX_WAITING_CHAINS (a client that never retries must not grow this without end).
 */

/** MRTR answers still waiting for their retry; the oldest is forgotten past this. */
export const MAX_WAITING_CHAINS = 1024;

/** A round's identity: the same session, method, target and request state. */
export interface ChainRound {
  sessionKey: string;
  method: string;
  target: string | undefined;
  /** The `requestState` the answer handed out (and the retry carries back); '' when none. */
  state: string;
}

export interface MrtrChainsState {
  chains: [key: string, exchangeId: string][];
  rootOf: [exchangeId: string, root: string][];
}

export class MrtrChains {
  /** The exchange an `input_required` answer left waiting for its retry, by round. */
  private readonly chains: Map<string, string>;
  /** The first exchange of a multi-round chain, for each round still waiting for its retry. */
  private readonly rootOf: Map<string, string>;

  constructor(state?: MrtrChainsState) {
    this.chains = new Map(state?.chains ?? []);
    this.rootOf = new Map(state?.rootOf ?? []);
  }

  state(): MrtrChainsState {
    return { chains: [...this.chains], rootOf: [...this.rootOf] };
  }

  /** Exchange `exchangeId` was answered `input_required`: it waits for the retry of `round`. */
  awaitRetry(round: ChainRound, exchangeId: string): void {
    this.chains.set(chainKey(round), exchangeId);
    if (this.chains.size > MAX_WAITING_CHAINS) {
      const [key, oldest] = this.chains.entries().next().value!;
      this.chains.delete(key);
      this.rootOf.delete(oldest);
    }
  }

  /**
   * Exchange `exchangeId` retries `round`: the exchange that started the chain, when one waited
   * for it. `chainOfFirst` is what the waiting exchange already knows of its own root.
   */
  retried(round: ChainRound, exchangeId: string, chainOfFirst: (first: string) => string | undefined): string | undefined {
    const key = chainKey(round);
    const first = this.chains.get(key);
    if (first === undefined) return undefined;
    this.chains.delete(key);
    const root = chainOfFirst(first) ?? this.rootOf.get(first) ?? first;
    // `first` waited only for this retry: nothing reads its root again.
    this.rootOf.delete(first);
    this.rootOf.set(exchangeId, root);
    return root;
  }

  /** A settled exchange that waits for no retry: it is no chain's root-in-waiting any more. */
  settled(exchangeId: string): void {
    this.rootOf.delete(exchangeId);
  }
}

function chainKey(round: ChainRound): string {
  return `${round.sessionKey}\u0000${round.method}\u0000${round.target ?? ''}\u0000${round.state}`;
}
