/**
 * The questions a running widget's tool calls put to the user, one per tool: a second call of a
 * tool already being asked about waits for the same answer, and a tool the user denied stays
 * denied for as long as this widget runs (a Reload asks again). Allows live on the proxy, which
 * refuses any call it was not told to allow.
 */
export interface ConsentAsk {
  tool: string;
  answer(allowed: boolean): void;
}

export class ConsentAsks {
  private readonly pending = new Map<string, { ask: ConsentAsk; answered: Promise<boolean> }>();
  private readonly denied = new Set<string>();
  private readonly listeners = new Set<() => void>();

  /** Whether the user allows the widget to call `tool`; asks at most once per tool at a time. */
  ask(tool: string): Promise<boolean> {
    if (this.denied.has(tool)) return Promise.resolve(false);
    const open = this.pending.get(tool);
    if (open) return open.answered;
    let resolve!: (allowed: boolean) => void;
    const answered = new Promise<boolean>((r) => (resolve = r));
    const ask: ConsentAsk = {
      tool,
      answer: (allowed) => {
        if (this.pending.get(tool)?.ask !== ask) return;
        this.pending.delete(tool);
        if (!allowed) this.denied.add(tool);
        resolve(allowed);
        this.changed();
      },
    };
    this.pending.set(tool, { ask, answered });
    this.changed();
    return answered;
  }

  /** The question shown now (the oldest still open). */
  current(): ConsentAsk | undefined {
    return this.pending.values().next().value?.ask;
  }

  /** Ends every open question as a Deny (the widget was replaced). */
  close(): void {
    for (const { ask } of [...this.pending.values()]) ask.answer(false);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
