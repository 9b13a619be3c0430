/**
 * What differs from run to run without meaning anything, and how it is set aside before two
 * answers are compared (by `verify`, by the dashboard's re-run table and its replay diff).
 *
 * Volatile by default:
 * - members whose *name* says they are a moment or a one-off token (`timestamp`, `createdAt`,
 *   `expiresAt`, `requestId`, `sessionId`, `progressToken`, `traceId`, `nonce`, `etag`, …):
 *   their value becomes `VOLATILE_MARK`, so the member must still be there;
 * - any UUID and any ISO-8601 date-time *inside* a string, wherever it is ("created
 *   2026-12-02T09:00:00Z" equals "created 2027-01-01T10:00:00.5Z");
 * - `$.result.serverInfo.version` of an `initialize` answer (a release changes it, and a
 *   verify run after a deploy is exactly when it changes).
 * Paths the user names (`--ignore '$.result.content[*].text'`) are removed altogether, so a
 * member that exists on one side only is not a difference either.
 */
import { parsePathPattern, pathMatches, type PathPattern, type PathStep } from '../model/json-path.js';

export const VOLATILE_MARK = '‹volatile›';

/** Member names (compared without `_`/`-`, case-insensitive) whose values are volatile. */
export const VOLATILE_KEYS: readonly string[] = [
  'requestid', 'progresstoken', 'sessionid', 'timestamp', 'ts', 'time', 'date', 'datetime', 'created', 'createdat', 'updated', 'updatedat',
  'modified', 'modifiedat', 'lastmodified', 'expires', 'expiresat', 'elapsed', 'elapsedms', 'durationms', 'latencyms', 'nonce', 'etag',
  'traceid', 'spanid', 'traceparent', 'tracestate',
];

const KEYS = new Set(VOLATILE_KEYS);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_DATE_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;

/** Paths volatile in every comparison, relative to the JSON-RPC message. */
export const DEFAULT_IGNORED_PATHS: readonly string[] = ['$.result.serverInfo.version'];

export interface VolatileOptions {
  /** Parsed `--ignore` patterns (see `parseIgnore`), matched against paths from the message root. */
  ignore?: readonly PathPattern[];
  /** Extra member names to mask at any depth (the dashboard adds the envelope's `id`). */
  keys?: readonly string[];
  /** Leave out the built-in rules (names, UUIDs, date-times) and keep only `ignore`. */
  builtIn?: boolean;
}

/** Parses `--ignore` values; the first bad one is reported with its reason. */
export function parseIgnore(texts: readonly string[]): { ok: true; patterns: PathPattern[] } | { ok: false; message: string } {
  const patterns: PathPattern[] = [];
  for (const text of texts) {
    const parsed = parsePathPattern(text.trim());
    if (!parsed.ok) return parsed;
    patterns.push(parsed.pattern);
  }
  return { ok: true, patterns };
}

const DEFAULT_PATTERNS = parseIgnore(DEFAULT_IGNORED_PATHS);

function normalKey(key: string): string {
  return key.replace(/[_-]/g, '').toLowerCase();
}

/** A masked string: UUIDs and date-times inside it replaced by the mark (the rest kept). */
export function maskVolatileText(text: string): string {
  if (text.length < 16) return text;
  return text.replace(UUID, VOLATILE_MARK).replace(ISO_DATE_TIME, VOLATILE_MARK);
}

/** A path as a linked list, so walking a deep value never copies its path per node. */
interface PathNode {
  step: PathStep;
  parent: PathNode | undefined;
  depth: number;
}

function stepsOf(node: PathNode | undefined): PathStep[] {
  const out: PathStep[] = [];
  for (let n = node; n; n = n.parent) out.push(n.step);
  return out.reverse();
}

/**
 * A copy of `value` with volatile parts masked and ignored paths removed. Never recursive
 * (frames can nest deeper than the call stack); the input is not changed.
 */
export function maskVolatile(value: unknown, options: VolatileOptions = {}): unknown {
  const builtIn = options.builtIn ?? true;
  const ignore = [...(builtIn && DEFAULT_PATTERNS.ok ? DEFAULT_PATTERNS.patterns : []), ...(options.ignore ?? [])];
  // Patterns without `..` match only paths of their own length: deeper nodes skip the check.
  const unbounded = ignore.some((p) => p.some((s) => s.kind === 'deep'));
  const longest = Math.max(0, ...ignore.map((p) => p.length));
  const ignored = (node: PathNode) => (unbounded || node.depth <= longest) && ignore.some((p) => pathMatches(p, stepsOf(node)));
  const extra = new Set((options.keys ?? []).map(normalKey));
  const volatileKey = (key: string) => extra.has(normalKey(key)) || (builtIn && KEYS.has(normalKey(key)));
  const leaf = (v: unknown) => (builtIn && typeof v === 'string' ? maskVolatileText(v) : v);

  const root: { value: unknown } = { value: undefined };
  // Each task fills one slot of an already-built parent container.
  const tasks: Array<{ value: unknown; node: PathNode | undefined; put: (v: unknown) => void }> = [{ value, node: undefined, put: (v) => (root.value = v) }];
  while (tasks.length > 0) {
    const { value: v, node, put } = tasks.pop()!;
    const depth = (node?.depth ?? 0) + 1;
    if (Array.isArray(v)) {
      const out: unknown[] = new Array(v.length);
      put(out);
      v.forEach((item, i) => {
        const at: PathNode = { step: i, parent: node, depth };
        if (ignored(at)) out[i] = VOLATILE_MARK;
        else tasks.push({ value: item, node: at, put: (x) => (out[i] = x) });
      });
    } else if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      put(out);
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        const at: PathNode = { step: k, parent: node, depth };
        if (ignored(at)) continue;
        if (volatileKey(k)) out[k] = VOLATILE_MARK;
        else {
          out[k] = undefined; // keeps the member order of the input
          tasks.push({ value: item, node: at, put: (x) => (out[k] = x) });
        }
      }
    } else {
      put(leaf(v));
    }
  }
  return root.value;
}
