/**
 * Folding the MCP steps a client repeats, so a story stays readable when a host churns: ChatGPT
 * opens a session for every tool call (probe, `initialize`, `tools/list`, the call), so one chat of
 * ten calls would otherwise be forty lines. A step that repeats with the same check, colour and
 * title is one line counted `×N`, listing every request it covers; the calls of all the client's
 * sessions are one "N requests" line. A step of another colour (a failed `initialize`) stays a
 * line of its own, where it happened.
 */
import type { DoorRecord } from '../door-record.js';
import { addStep, type FlowContext } from './flow-context.js';
import type { FlowPhase, FlowStep, StepColour } from './flow-types.js';

interface Repeated {
  step: FlowStep;
  title: string;
  count: number;
}

interface Calls {
  step: FlowStep;
  counts: Map<string, { ok: number; failed: number }>;
  exchanges: string[];
}

/** Per-client state of the MCP steps. */
export interface McpState {
  repeated: Map<string, Repeated>;
  /** The one "calls" step of the client, made at its first call. */
  calls?: Calls;
  /** Sessions whose first tools/list has been told (later lists count as calls). */
  listed: Set<string>;
}

export const newMcpState = (): McpState => ({ repeated: new Map(), listed: new Set() });

export interface RepeatedStep {
  phase: FlowPhase;
  colour: StepColour;
  check: string;
  title: string;
  reason: string;
  spec?: string;
  exchanges?: string[];
}

/**
 * Adds the step, or counts it into the same step told before. `reword` may change the reason and
 * colour of the folded step as the count grows (a probe refused once is normal, ten times a loop).
 */
export function repeatStep(ctx: FlowContext, state: McpState, r: DoorRecord, s: RepeatedStep, reword?: (step: FlowStep, count: number) => void): void {
  const key = `${s.check}\u0000${s.colour}\u0000${s.title}`;
  const seen = state.repeated.get(key);
  if (!seen) {
    const extra: { spec?: string; exchanges?: string[] } = {};
    if (s.spec) extra.spec = s.spec;
    if (s.exchanges) extra.exchanges = s.exchanges;
    state.repeated.set(key, { step: addStep(ctx, s.phase, s.colour, s.check, s.title, s.reason, [r], extra), title: s.title, count: 1 });
    return;
  }
  seen.count++;
  if (!seen.step.records.includes(r.id)) seen.step.records.push(r.id);
  if (s.exchanges && s.exchanges.length > 0) seen.step.exchanges = [...(seen.step.exchanges ?? []), ...s.exchanges];
  seen.step.title = `${seen.title} ×${seen.count}`;
  seen.step.reason = s.reason;
  reword?.(seen.step, seen.count);
}

/** Counts a request into the client's one "calls" step (made at the first). */
export function foldCall(ctx: FlowContext, state: McpState, r: DoorRecord, method: string, failed: boolean, exchangeId: string | undefined): void {
  let calls = state.calls;
  if (!calls) {
    calls = { step: addStep(ctx, 'mcp', 'green', 'mcp-calls', '', '', [r]), counts: new Map(), exchanges: [] };
    state.calls = calls;
  } else if (!calls.step.records.includes(r.id)) {
    calls.step.records.push(r.id);
  }
  if (exchangeId !== undefined) calls.exchanges.push(exchangeId);
  const count = calls.counts.get(method) ?? { ok: 0, failed: 0 };
  if (failed) count.failed++;
  else count.ok++;
  calls.counts.set(method, count);
  renderCalls(calls);
}

function renderCalls({ step, counts, exchanges }: Calls): void {
  let total = 0;
  let failed = 0;
  const parts: string[] = [];
  for (const [method, c] of counts) {
    total += c.ok + c.failed;
    failed += c.failed;
    parts.push(`${c.ok + c.failed} ${method}${c.failed ? ` (${c.failed} failed)` : ''}`);
  }
  step.title = `${total} request${total === 1 ? '' : 's'}`;
  step.colour = failed > 0 ? 'amber' : 'green';
  step.reason = `${parts.join(', ')}${failed ? '; failures of single calls are in the timeline, the connection itself works' : ''}.`;
  step.exchanges = exchanges;
}
