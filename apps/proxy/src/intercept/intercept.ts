/**
 * The intercept feature: the rule set, the frames paused rules hold, and what each rule did with
 * the client's reaction, behind the tap's InterceptPort. Rules come only from the dashboard's
 * token-guarded API and the command line; the tap's listener never takes control messages.
 */
import type { FrameInput, InterceptRule } from '@mcpscope/protocol';
import type { InterceptDecision, InterceptOutcome, InterceptPort } from '../core/intercept-port.js';
import { HeldFrames, type HeldEnd } from './held-frames.js';
import type { InterceptStore, Intervention } from './intercept-store.js';
import { ReactionWatch, type Watched } from './reaction-watch.js';
import { RuleSet, type ActiveRule, type AddResult } from './rule-set.js';

export interface InterceptDeps {
  store: InterceptStore;
  now(): number;
  random?: () => number;
}

export class Intercept implements InterceptPort {
  readonly rules: RuleSet;
  readonly held: HeldFrames;
  private readonly reactions: ReactionWatch;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: InterceptDeps) {
    this.rules = new RuleSet(deps.random);
    this.held = new HeldFrames(() => Date.now());
    this.reactions = new ReactionWatch((id, reaction) => {
      deps.store.setReaction(id, reaction);
      this.changed();
    }, deps.now);
    // A reopened capture keeps its rule set, each rule as it was left (on or off).
    for (const stored of deps.store.rules()) this.rules.add(stored.text, stored);
    this.held.onChange(() => this.changed());
  }

  get active(): boolean {
    return this.rules.active;
  }

  /** Adds a rule (text as written) and saves it with the capture. */
  add(text: string): AddResult {
    const added = this.rules.add(text);
    if (added.ok) this.save(added.rule);
    this.changed();
    return added;
  }

  setEnabled(id: string, enabled: boolean): ActiveRule | undefined {
    const rule = this.rules.setEnabled(id, enabled);
    if (rule) this.save(rule);
    this.changed();
    return rule;
  }

  remove(id: string): boolean {
    const removed = this.rules.remove(id);
    if (removed) this.deps.store.removeRule(id);
    this.changed();
    return removed;
  }

  interventions(): Intervention[] {
    return this.deps.store.interventions();
  }

  /** Called for rule sets, held frames and reactions changing (the dashboard refreshes). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sees every recorded frame: cheap while no reaction is watched. */
  saw(frame: FrameInput): void {
    if (this.reactions.active) this.reactions.saw(frame);
  }

  decide(raw: string, sessionKey: string | undefined, ts: number): InterceptDecision | undefined {
    const picked = this.rules.decide(raw, sessionKey, ts);
    if (!picked) return undefined;
    const { rule, subject } = picked;
    this.save(rule);
    this.changed();
    const mark = { rule: rule.id, text: rule.text, action: rule.rule.action.type };
    let heldHow: HeldEnd | undefined;
    let spent = false;
    const watched = this.reactions.watch({ sessionKeys: new Set(sessionKey !== undefined ? [sessionKey] : []), method: subject.method, target: subject.summary.target, rpcId: subject.rpcId, startTs: ts });
    return {
      mark,
      action: rule.rule.action,
      method: subject.method,
      ...(subject.rpcId !== undefined ? { rpcId: subject.rpcId } : {}),
      ...(subject.params ? { params: subject.params } : {}),
      hold: (frame) => this.held.hold(frame, rule, deadlineOf(rule.rule), (how) => (heldHow = how)),
      done: (outcome) => {
        if (spent) return;
        spent = true;
        this.record(rule, outcome, heldHow, watched);
      },
    };
  }

  close(): void {
    this.held.releaseAll();
    this.reactions.closeAll();
  }

  private record(rule: ActiveRule, outcome: InterceptOutcome, heldHow: HeldEnd | undefined, watched: Watched): void {
    const ts = this.deps.now();
    const note = heldHow === 'deadline' ? `${outcome.note} (released by itself at the rule's deadline)` : outcome.note;
    const id = this.deps.store.addIntervention({
      ts,
      ruleId: rule.id,
      ruleText: rule.text,
      action: rule.rule.action.type,
      sessionKey: outcome.sessionKey,
      requestSeq: outcome.requestSeq,
      deliveredSeq: outcome.deliveredSeq,
      ...(outcome.original !== undefined ? { original: outcome.original } : {}),
      note,
    });
    watched.sessionKeys.add(outcome.sessionKey);
    this.reactions.recorded(watched, id);
    this.changed();
  }

  private save(rule: ActiveRule): void {
    this.deps.store.saveRule({ id: rule.id, text: rule.text, enabled: rule.enabled, hits: rule.hits });
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function deadlineOf(rule: InterceptRule): number {
  return rule.action.type === 'pause' ? rule.action.deadlineMs : 0;
}

