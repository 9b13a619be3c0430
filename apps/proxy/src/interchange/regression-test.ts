/**
 * "Save as a regression test": from a filter, a conversation or one exchange, the golden capture
 * `mcpscope verify` re-runs in CI (the JSONL export of the chosen calls plus their sessions'
 * handshakes, so every session starts as it did), the volatile paths this capture shows (two
 * answers to one request that differ: a call and its replay, or the same call made twice; see
 * detectVolatilePaths), and a ready command and GitHub Actions job with those paths as `--ignore`.
 */
import {
  classifyText,
  detectVolatilePaths,
  parseFilter,
  requestKey,
  type AnswerPair,
  type ExchangeSummary,
  type Filter,
  type JsonObject,
  type RegressionTestPlan,
} from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { InspectorError } from '../core/errors.js';
import { storedKeyIs } from '../capture/session-keys.js';

/** The most client calls one golden capture takes (a larger test is a capture file, verified whole). */
export const MAX_GOLDEN_CALLS = 5_000;
/** Other exchanges of one method and target read for a second answer to the same request. */
const CANDIDATES_PER_TARGET = 50;
/** Pairs compared per request. */
const PAIRS_PER_REQUEST = 4;
const HANDSHAKE = new Set(['initialize', 'notifications/initialized']);

export interface RegressionScope {
  filter?: string;
  conversation?: string;
  exchange?: string;
}

export interface RegressionDeps {
  source: CaptureReader;
  /** The live server this capture went to (a URL), for the snippet's default target. */
  target?: string;
}

/** The chosen exchanges: the client calls and, first, their sessions' handshakes. */
export interface GoldenSelection {
  scope: string;
  calls: ExchangeSummary[];
  exchangeIds: string[];
}

export function scopeOf(query: (name: string) => string | undefined): RegressionScope {
  const scope: RegressionScope = {};
  for (const key of ['filter', 'conversation', 'exchange'] as const) {
    const value = query(key);
    if (value !== undefined && value.trim() !== '') scope[key] = value;
  }
  if (Object.keys(scope).length !== 1) throw new InspectorError('bad_param', 'Choose what to save: exactly one of filter=EXPR, conversation=KEY or exchange=ID.');
  return scope;
}

export function goldenSelection(source: CaptureReader, scope: RegressionScope): GoldenSelection {
  let chosen: ExchangeSummary[];
  let words: string;
  if (scope.exchange !== undefined) {
    const ex = source.exchange(scope.exchange);
    if (!ex) throw new InspectorError('not_found', `No exchange "${scope.exchange}".`);
    chosen = [ex];
    words = `exchange #${ex.id}`;
  } else {
    let filter: Filter;
    if (scope.conversation !== undefined) {
      if (!source.conversation(scope.conversation)) throw new InspectorError('not_found', `No conversation "${scope.conversation}".`);
      filter = { type: 'field', field: 'conversation', op: ':', value: scope.conversation };
      words = `conversation ${scope.conversation}`;
    } else {
      const parsed = parseFilter(scope.filter!);
      if (!parsed.ok) throw new InspectorError('bad_filter', `filter "${scope.filter}": ${parsed.error.message} (at position ${parsed.error.position})`, { position: parsed.error.position });
      if (parsed.filter === null) throw new InspectorError('bad_param', 'The filter is empty: choose what to save.');
      filter = parsed.filter;
      words = `the filter ${scope.filter}`;
    }
    chosen = findAll(source, filter);
  }
  const calls = chosen.filter(isClientCall).sort((a, b) => Number(a.requestSeq) - Number(b.requestSeq));
  if (calls.length === 0) throw new InspectorError('bad_param', `${words} selects no call a client made (mcpscope's own replays and widget calls are not the client's).`);
  if (calls.length > MAX_GOLDEN_CALLS) throw new InspectorError('bad_param', `${words} selects ${calls.length.toLocaleString('en')} calls; a golden capture takes at most ${MAX_GOLDEN_CALLS.toLocaleString('en')}: narrow the filter, or verify the capture file itself.`);
  const ids = new Set<string>();
  for (const sessionKey of new Set(calls.map((c) => c.sessionKey))) {
    const session = storedKeyIs('session_key', sessionKey);
    for (const row of source.stmt(`SELECT id FROM exchanges WHERE ${session.sql} AND method IN ('initialize', 'notifications/initialized')`).all(...session.params) as { id: string }[]) ids.add(row.id);
  }
  for (const c of calls) ids.add(c.id);
  return { scope: words, calls, exchangeIds: [...ids] };
}

function findAll(source: CaptureReader, filter: Filter): ExchangeSummary[] {
  const query = new CaptureQuery(source);
  const out: ExchangeSummary[] = [];
  let before: number | undefined;
  do {
    const page = query.exchanges(filter, 1000, before);
    out.push(...page.exchanges);
    before = page.nextBefore;
  } while (before !== undefined && out.length <= MAX_GOLDEN_CALLS * 2);
  return out;
}

function isClientCall(ex: ExchangeSummary): boolean {
  return ex.kind === 'request' && ex.requester === 'client' && ex.method !== undefined && !HANDSHAKE.has(ex.method) && ex.replayOf === undefined && ex.widgetOf === undefined;
}

export function regressionPlan(deps: RegressionDeps, scope: RegressionScope): RegressionTestPlan {
  const selection = goldenSelection(deps.source, scope);
  const ignore = detectVolatilePaths(answerPairs(deps.source, selection.calls));
  const fileName = 'golden.jsonl';
  const targetUrl = deps.target !== undefined && /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/i.test(deps.target) ? deps.target : 'http://localhost:3000/mcp';
  const args = [`verify ${fileName}`, '--target "$MCP_URL"', '--expect ok', '--report junit.xml', ...ignore.map((v) => `--ignore ${shellQuote(v.path)}`)];
  return {
    scope: selection.scope,
    calls: selection.calls.length,
    sessions: new Set(selection.calls.map((c) => c.sessionKey)).size,
    failedInCapture: selection.calls.filter((c) => c.status !== 'ok').length,
    ignore,
    fileName,
    targetUrl,
    command: `npx -y mcpscope ${args.join(' ')}`,
    workflow: workflowYaml(fileName, targetUrl, [...args, '--format github']),
  };
}

/** Two answers to one request: the call's against each replay of it and each same call made again. */
function* answerPairs(source: CaptureReader, calls: readonly ExchangeSummary[]): Iterable<AnswerPair> {
  const byTarget = new Map<string, ExchangeSummary[]>();
  for (const c of calls) {
    if (c.status !== 'ok') continue;
    const key = `${c.method} ${c.target ?? ''}`;
    byTarget.set(key, [...(byTarget.get(key) ?? []), c]);
  }
  const statement = source.stmt(`SELECT summary FROM exchanges WHERE method = ? AND target IS ? AND status = 'ok' ORDER BY sort_key DESC LIMIT ${CANDIDATES_PER_TARGET}`);
  for (const group of byTarget.values()) {
    const { method, target } = group[0]!;
    const candidates = (statement.all(method!, target ?? null) as { summary: string }[]).map((r) => source.summary(r.summary));
    const byRequest = new Map<string, ExchangeSummary[]>();
    for (const ex of candidates) {
      const key = keyOf(source, ex);
      if (key !== undefined) byRequest.set(key, [...(byRequest.get(key) ?? []), ex]);
    }
    for (const call of group) {
      const key = keyOf(source, call);
      const answer = answerOf(source, call);
      if (key === undefined || answer === undefined) continue;
      let pairs = 0;
      for (const other of byRequest.get(key) ?? []) {
        if (other.id === call.id || pairs >= PAIRS_PER_REQUEST) continue;
        const second = answerOf(source, other);
        if (second === undefined) continue;
        pairs++;
        yield { before: answer, after: second, evidence: other.replayOf === call.id ? `#${call.id} and its replay #${other.id}` : `#${call.id} and #${other.id}, the same ${call.method} ${call.target ?? ''}`.trimEnd() };
      }
    }
  }
}

function messageAt(source: CaptureReader, seq: number | undefined): JsonObject | undefined {
  if (seq === undefined) return undefined;
  const frame = source.frameRaw(seq);
  if (!frame) return undefined;
  const m = classifyText(frame.raw);
  return m.kind === 'request' || m.kind === 'response' || m.kind === 'error' ? (JSON.parse(frame.raw) as JsonObject) : undefined;
}

function keyOf(source: CaptureReader, ex: ExchangeSummary): string | undefined {
  const request = messageAt(source, ex.requestSeq);
  if (!request || typeof request.method !== 'string') return undefined;
  return requestKey(request.method, request.params as JsonObject | undefined);
}

function answerOf(source: CaptureReader, ex: ExchangeSummary): JsonObject | undefined {
  return messageAt(source, ex.responseSeq);
}

/** A POSIX shell word: single-quoted, a single quote inside closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function workflowYaml(fileName: string, targetUrl: string, args: string[]): string {
  return `# .github/workflows/mcp-regression.yml — written by mcpscope's "Save as regression test".
# Commit ${fileName} beside it. verify re-runs every call of the golden capture against your
# server and fails the job on a regression; --format github puts each one on the pull request.
name: MCP regression
on: [pull_request, push]
jobs:
  mcpscope-verify:
    runs-on: ubuntu-latest
    env:
      MCP_URL: ${targetUrl}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      # Start your MCP server in the background (replace with your own commands).
      - run: npm ci && (npm start &)
      - name: Wait for the server
        run: for i in $(seq 60); do curl -s -o /dev/null "$MCP_URL" && exit 0; sleep 1; done; exit 1
      - name: mcpscope verify
        run: npx -y mcpscope ${args.join(' ')}
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: mcpscope-junit
          path: junit.xml
`;
}
