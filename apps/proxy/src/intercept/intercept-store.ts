/**
 * Where the intercept feature keeps what outlives a run: the rule set and what each rule did
 * (capture/intercept-tables.ts implements it on the capture file, so a reopened capture shows
 * what was injected). compose/ hands it in.
 */
import type { Intervention, Reaction, StoredRule } from '@mcpscope/protocol';

export type { Intervention, Reaction, ReactionKind, StoredRule } from '@mcpscope/protocol';

export interface InterceptStore {
  rules(): StoredRule[];
  saveRule(rule: StoredRule): void;
  removeRule(id: string): void;
  interventions(): Intervention[];
  /** Stores a new intervention; returns its id. */
  addIntervention(entry: Omit<Intervention, 'id'>): number;
  setReaction(id: number, reaction: Reaction): void;
}

/** For a capture that keeps nothing (capture off): intervention ids still count up. */
export function memoryInterceptStore(): InterceptStore {
  const rules = new Map<string, StoredRule>();
  const log: Intervention[] = [];
  return {
    rules: () => [...rules.values()],
    saveRule: (rule) => void rules.set(rule.id, { ...rule }),
    removeRule: (id) => void rules.delete(id),
    interventions: () => log.map((e) => ({ ...e })),
    addIntervention: (entry) => log.push({ ...entry, id: log.length + 1 }),
    setReaction: (id, reaction) => {
      const entry = log[id - 1];
      if (entry) entry.reaction = reaction;
    },
  };
}
