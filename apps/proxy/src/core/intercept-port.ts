/**
 * What the tap asks of the intercept feature, and what it hands back: the one seam between them
 * (features never import each other; compose/ wires intercept/ to this port). With no rule enabled
 * `active` is false and the tap does nothing else for intercept.
 */
import type { JsonObject, JsonRpcId, RuleAction, RuleMark } from '@mcpscope/protocol';

export interface InterceptPort {
  /** False while no rule is enabled. */
  readonly active: boolean;
  /**
   * The rule that acts on this client message now (its count already spent), or undefined. Only
   * single requests and notifications held whole on the MCP path are asked about.
   */
  decide(raw: string, sessionKey: string | undefined, ts: number): InterceptDecision | undefined;
}

export interface InterceptDecision {
  mark: RuleMark;
  action: RuleAction;
  method: string;
  rpcId?: JsonRpcId;
  /** The request's params (a notify of progress reads its progress token). */
  params?: JsonObject;
  /**
   * Holds a frame (the request before the server sees it, or the answer before the client does)
   * until the user releases, edits or drops it, or the rule's deadline passes: resolves with the
   * text to send on, or null when it is dropped.
   */
  hold(frame: HeldFrame): Promise<string | null>;
  /** What the rule did, once: the frame it changed or made (-1: none delivered) and the text that was replaced. */
  done(outcome: InterceptOutcome): void;
}

export interface HeldFrame {
  direction: 'c2s' | 's2c';
  raw: string;
  sessionKey: string;
}

export interface InterceptOutcome {
  sessionKey: string;
  /** The client request's frame (its exchange is where the reaction is watched from). */
  requestSeq: number;
  /** The frame mcpscope delivered in place of the original (-1: nothing was delivered). */
  deliveredSeq: number;
  /** What the rule replaced or held back (the server's answer, the client's request before an edit). */
  original?: string;
  /** One line for the user: what happened (`answered 429 in the server's place`). */
  note: string;
}
