/**
 * One captured session played against the live server, as the captured client played it:
 * `initialize` first with the captured protocol revision, capabilities and clientInfo (legacy
 * era; 2026-07-28 requests carry their own `_meta`), `notifications/initialized`, then every
 * selected call and every client notification in capture order. Server requests that arrive
 * during a call are answered the way the captured client answered them; a 2026-07-28 retry
 * carries the `requestState` the live server just gave, not the captured one.
 *
 * Each selected call becomes a row: its captured status and answer, the live ones, and the
 * verdict of compareOutcomes (packages/protocol), the same comparison the dashboard shows.
 */
import {
  answerAsCaptured,
  comparableStatus,
  compareOutcomes,
  isJsonObject,
  outcomeOf,
  targetOf,
  type CallOutcome,
  type CassetteCall,
  type CassetteSession,
  type CompareOptions,
  type Difference,
  type ExchangeStatus,
  type JsonObject,
  type JsonRpcId,
  type OutcomeStatus,
  type RequestMessage,
  type Verdict,
} from '@mcpscope/protocol';
import type { PostOutcome, VerifyClient } from './verify-client.js';

export type RowVerdict = Verdict | 'skipped' | 'error';

export interface VerifyRow {
  sessionKey: string;
  exchangeId: string;
  method: string;
  target?: string;
  id: JsonRpcId;
  before: ExchangeStatus;
  after?: OutcomeStatus;
  verdict: RowVerdict;
  difference?: Difference;
  /** Why a row was skipped or could not run, or what else the user should know. */
  note?: string;
  durationMs?: number;
  /** The live answer (or failure), for the JSON report. */
  afterAnswer?: JsonObject;
  afterFailure?: string;
  /** The run's time (`--max-time`) was up before this call finished, or before it started. */
  runOut?: boolean;
}

export interface SessionRun {
  rows: VerifyRow[];
  /** The server could not be reached at all: nothing of this session ran. */
  unreachable?: string;
  warnings: string[];
}

export interface SessionRunOptions {
  client: VerifyClient;
  selected(call: CassetteCall): boolean;
  compare: CompareOptions;
  onRow?(row: VerifyRow): void;
}

const FALLBACK_CLIENT: JsonObject = { name: 'mcpscope-verify', version: '0.1.0' };
const FALLBACK_VERSION = '2025-11-25';

export async function verifySession(session: CassetteSession, options: SessionRunOptions): Promise<SessionRun> {
  const { client } = options;
  const rows: VerifyRow[] = [];
  const warnings: string[] = [];
  const emit = (row: VerifyRow) => {
    rows.push(row);
    options.onRow?.(row);
  };
  const calls = session.steps.flatMap((s) => (s.kind === 'call' ? [s.call] : []));
  if (!calls.some((c) => options.selected(c))) return { rows, warnings };
  /** The run's time is up: every selected call from `from` on (all when undefined) did not run. */
  const runOut = (from?: CassetteCall): SessionRun => {
    for (const call of calls.slice(from ? calls.indexOf(from) : 0)) {
      if (options.selected(call) && !rows.some((r) => r.exchangeId === call.exchangeId)) emit({ ...rowBase(call), verdict: 'error', note: 'not run: the run reached --max-time', runOut: true });
    }
    return { rows, warnings };
  };
  const tellUnanswered = (call: CassetteCall | undefined, outcome: PostOutcome) => {
    if (outcome.serverRequestsUnanswered) warnings.push(`session ${session.sessionKey}, ${call ? `${call.method} #${call.exchangeId}` : 'initialize'}: the server sent ${outcome.serverRequestsUnanswered} more requests during the call than verify answers in one call (${client.limits.maxServerRequests}); they were left unanswered`);
  };
  if (client.runOver) return runOut(undefined);

  if (session.era === 'legacy') {
    const init = session.initialize;
    const message = init?.request ?? { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: session.protocolVersion ?? FALLBACK_VERSION, capabilities: session.clientCapabilities ?? {}, clientInfo: session.clientInfo ?? FALLBACK_CLIENT } };
    const started = performance.now();
    const outcome = await client.post(message, init?.headers, answerFrom(init, session));
    tellUnanswered(init, outcome);
    if (outcome.runOut) return runOut();
    if (outcome.unreachable) {
      for (const call of calls) if (options.selected(call)) emit({ ...rowBase(call), verdict: 'error', note: `not run: the server is unreachable (${outcome.failure})` });
      return { rows, warnings, unreachable: outcome.failure! };
    }
    if (outcome.missingCredentials) warnings.push(`session ${session.sessionKey}: the captured client sent ${outcome.missingCredentials.join(', ')} (redacted in the capture); pass it with --header to send it again`);
    client.sessionId = outcome.sessionId;
    const result = isJsonObject(outcome.answer?.result) ? outcome.answer.result : undefined;
    client.protocolVersion = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
    if (init && options.selected(init)) emit(compareRow(init, outcome, performance.now() - started, options.compare));
    if (!result) {
      const why = `initialize failed (${outcome.failure ?? (isJsonObject(outcome.answer?.error) ? String(outcome.answer.error.message) : 'no result')}), so nothing else of this session could run`;
      for (const call of calls) if (call !== init && options.selected(call)) emit({ ...rowBase(call), verdict: 'error', note: why });
      return { rows, warnings };
    }
    const initialized = session.steps.find((s) => s.kind === 'notification' && s.notification.method === 'notifications/initialized');
    await client.post(initialized?.kind === 'notification' ? initialized.notification.message : { jsonrpc: '2.0', method: 'notifications/initialized' }, init?.headers, answerFrom(undefined, session));
    client.listen(answerFrom(undefined, session));
  }

  const schemas = new Map<string, JsonObject>();
  const requestStates = new Map<string, string>();
  for (const step of session.steps) {
    if (step.kind === 'notification') {
      const method = step.notification.method;
      // Sent in the handshake; a cancellation names a request the live run may not have made.
      if (client.runOver) return runOut(calls.find((c) => !rows.some((r) => r.exchangeId === c.exchangeId)));
      if (method !== 'notifications/initialized' && method !== 'notifications/cancelled') await client.post(step.notification.message, undefined, answerFrom(undefined, session));
      continue;
    }
    const call = step.call;
    if (call === session.initialize || !options.selected(call)) continue;
    if (client.runOver) return runOut(call);
    if (call.status === 'pending' || call.status === 'cancelled') {
      emit({ ...rowBase(call), verdict: 'skipped', note: call.status === 'pending' ? 'not re-sent: the capture holds no answer to compare with' : 'not re-sent: the client cancelled it in the capture' });
      continue;
    }
    const message = retried(call, requestStates);
    const started = performance.now();
    const outcome = await client.post(message, call.headers, answerFrom(call, session), schemaFor(call, schemas));
    tellUnanswered(call, outcome);
    if (outcome.runOut) {
      emit({ ...rowBase(call), verdict: 'error', note: outcome.failure!, runOut: true, durationMs: Math.round((performance.now() - started) * 10) / 10 });
      return runOut(call);
    }
    if (outcome.unreachable && !rows.some((r) => r.after !== undefined)) {
      // The first request of a stateless session found no server: nothing of it can run.
      for (const rest of calls.slice(calls.indexOf(call))) if (options.selected(rest)) emit({ ...rowBase(rest), verdict: 'error', note: `not run: the server is unreachable (${outcome.failure})` });
      return { rows, warnings, unreachable: outcome.failure! };
    }
    remember(call, outcome.answer, schemas, requestStates);
    emit(compareRow(call, outcome, performance.now() - started, options.compare));
  }
  await client.end();
  return { rows, warnings };
}

function rowBase(call: CassetteCall): VerifyRow {
  const row: VerifyRow = { sessionKey: call.sessionKey, exchangeId: call.exchangeId, method: call.method, id: call.id, before: call.status, verdict: 'skipped' };
  if (call.target !== undefined) row.target = call.target;
  return row;
}

function compareRow(call: CassetteCall, outcome: PostOutcome, durationMs: number, compare: CompareOptions): VerifyRow {
  const row = rowBase(call);
  const after = outcomeOf(outcome.answer, outcome.failure);
  row.after = after.status;
  row.durationMs = Math.round(durationMs * 10) / 10;
  if (outcome.answer) row.afterAnswer = outcome.answer;
  if (after.failure !== undefined) row.afterFailure = after.failure;
  const status = comparableStatus(call.status);
  if (status === undefined) return { ...row, verdict: 'skipped', note: `the captured call ended ${call.status}: nothing to compare with` };
  const before: CallOutcome = { status, ...(call.answer ? { answer: call.answer } : {}), ...(call.failure !== undefined ? { failure: call.failure } : {}) };
  const comparison = compareOutcomes(before, after, compare);
  row.verdict = comparison.verdict;
  if (comparison.difference) row.difference = comparison.difference;
  return row;
}

/** Answers server requests as the captured client did in this call, or in its session outside calls. */
function answerFrom(call: CassetteCall | undefined, session: CassetteSession): (request: RequestMessage) => JsonObject {
  return answerAsCaptured(call, session.pushes, 'mcpscope verify');
}

/** A 2026-07-28 retry carries the requestState the live server gave for the same method and target. */
function retried(call: CassetteCall, states: Map<string, string>): JsonObject {
  const state = states.get(chainKey(call.method, call.params));
  if (state === undefined || !isJsonObject(call.params) || !('requestState' in call.params)) return call.request;
  return { ...call.request, params: { ...call.params, requestState: state } };
}

function remember(call: CassetteCall, answer: JsonObject | undefined, schemas: Map<string, JsonObject>, states: Map<string, string>): void {
  const result = isJsonObject(answer?.result) ? answer.result : undefined;
  if (!result) return;
  if (call.method === 'tools/list' && Array.isArray(result.tools)) {
    for (const tool of result.tools) if (isJsonObject(tool) && typeof tool.name === 'string' && isJsonObject(tool.inputSchema)) schemas.set(tool.name, tool.inputSchema);
  }
  if (result.resultType === 'input_required' && typeof result.requestState === 'string') states.set(chainKey(call.method, call.params), result.requestState);
}

function schemaFor(call: CassetteCall, schemas: Map<string, JsonObject>): JsonObject | undefined {
  return call.method === 'tools/call' && call.target !== undefined ? schemas.get(call.target) : undefined;
}

function chainKey(method: string, params: JsonObject | undefined): string {
  return `${method} ${targetOf(method, params) ?? ''}`;
}
