/**
 * What the capture keeps of intercept rules: the rule set (saved with the capture, so a reopened
 * one shows what was injected) and each intervention, with the original beside what was delivered
 * and the client's reaction. The API, the dashboard and exports share these shapes.
 */
export interface StoredRule {
  id: string;
  text: string;
  enabled: boolean;
  hits: number;
}

/** One thing a rule did: the frame it made or changed, the original beside it, and how the client reacted. */
export interface Intervention {
  id: number;
  ts: number;
  ruleId: string;
  ruleText: string;
  action: string;
  sessionKey: string;
  requestSeq: number;
  /** The frame delivered in the original's place (-1: none). */
  deliveredSeq: number;
  /** What the rule replaced or held back. */
  original?: string;
  note: string;
  reaction?: Reaction;
}

/** What the client did next in that conversation, watched for a while after the intervention. */
export interface Reaction {
  /** Each kind of thing the client did, with how soon (ms after the intervention) it first did it, and how often. */
  events: { kind: ReactionKind; afterMs: number; count: number; detail?: string }[];
  /** Set when the watch is over (later traffic is no longer counted). */
  final: boolean;
}

export type ReactionKind = 'retried' | 're-initialized' | 'listed-tools' | 'called-another-tool' | 'cancelled' | 're-authenticated' | 'other-request';

/** A rule as the dashboard lists it. */
export interface RuleView extends StoredRule {
  action: string;
}

/** A frame a pause rule holds, as the dashboard shows it (with a countdown to `deadline`). */
export interface HeldFrameView {
  id: number;
  ruleId: string;
  ruleText: string;
  direction: 'c2s' | 's2c';
  raw: string;
  sessionKey: string;
  since: number;
  /** When it goes on by itself, unchanged (ms since the epoch). */
  deadline: number;
}

/** `GET /api/intercept`: the rule set, what is held now, and what the rules did. */
export interface InterceptResponse {
  /** False for a reopened capture (`mcpscope open`): rules are shown, not run. */
  live: boolean;
  rules: RuleView[];
  held: HeldFrameView[];
  interventions: Intervention[];
}
