/**
 * The field registry: every `field:value` operator of the filter language is one entry here with
 * its syntax, help, value check, sentence and predicates. The parser, describer, matchers and the
 * help/autocomplete list (FILTER_OPERATORS) all read this table, so they cannot drift apart.
 *
 * One language filters two kinds of rows: exchanges (JSON-RPC) and door records (every HTTP
 * request at the tap). A field that means nothing for a kind of row never matches it: `http.path:`
 * selects no exchange, `tool:` no door record, and `kind:http` tells the two apart.
 */
import { ERROR_STATUSES, EXCHANGE_STATUSES, type ExchangeSummary } from '../model/exchange.js';
import { probeReason } from '../door/door-classify.js';
import type { DoorRecord } from '../door/door-record.js';
import type { FilterContext, FilterField, FilterOp } from './types.js';
import { describeBytes, globMatcher, idValue, parseDuration, parseSize, quote } from './values.js';
import { HTTP_METHODS, compileStatus, describeStatus, normalizeStatus, pathnameOf } from './http-values.js';

export type ExchangePredicate = (ex: ExchangeSummary, ctx: FilterContext | undefined) => boolean;
export type DoorPredicate = (record: DoorRecord) => boolean;

export interface FieldSpec {
  field: FilterField;
  ops: readonly FilterOp[];
  syntax: string;
  help: string;
  example: string;
  values?: readonly string[];
  /** Checks and normalises a raw value; a string result is the value, an object is the complaint. */
  normalize(raw: string, quoted: boolean): string | { error: string };
  /** A clause that completes "exchanges where …". */
  describe(op: FilterOp, value: string): string;
  compile(op: FilterOp, value: string): ExchangePredicate;
  /** The predicate on door records; a field without one matches no door record. */
  compileDoor?(op: FilterOp, value: string): DoorPredicate;
}

/** Statuses `status:err` stands for. */

const asIs = (raw: string): string => raw;

function oneOf(values: readonly string[]): FieldSpec['normalize'] {
  return (raw) => {
    const v = raw.toLowerCase();
    return values.includes(v) ? v : { error: `expected one of ${values.join(', ')}` };
  };
}

function globDescription(noun: string, value: string): string {
  if (!value.includes('*')) return `${noun} is ${value}`;
  if (value.indexOf('*') === value.length - 1) return `${noun} starts with ${value.slice(0, -1)}`;
  return `${noun} matches ${value} (* = anything)`;
}

function compare(op: FilterOp, actual: number | undefined, limit: number): boolean {
  if (actual === undefined) return false;
  return op === '>' ? actual > limit : op === '<' ? actual < limit : actual === limit;
}

function clientNames(ctx: FilterContext | undefined): string[] {
  const s = ctx?.session;
  if (!s) return [];
  const names: string[] = [];
  if (s.clientLabel) names.push(s.clientLabel);
  if (typeof s.clientInfo?.name === 'string') names.push(s.clientInfo.name);
  if (typeof s.clientInfo?.title === 'string') names.push(s.clientInfo.title);
  if (s.userAgent) names.push(s.userAgent);
  return names.map((n) => n.toLowerCase());
}

const DIRECTIONS = ['c2s', 's2c'] as const;
const KINDS = ['request', 'notification', 'invalid', 'http', 'probe'] as const;
const never = () => false;
const STATUS_VALUES = [...EXCHANGE_STATUSES, 'err'] as const;
const HAS_VALUES = ['diag'] as const;

export const FIELD_SPECS: readonly FieldSpec[] = [
  {
    field: 'method',
    ops: [':'],
    syntax: 'method:NAME',
    help: 'JSON-RPC method, exact; end with * for a prefix (tools/*).',
    example: 'method:tools/*',
    normalize: asIs,
    describe: (_op, v) => globDescription('the method', v),
    compile: (_op, v) => {
      const m = globMatcher(v);
      return (ex) => ex.method !== undefined && m(ex.method);
    },
  },
  {
    field: 'tool',
    ops: [':'],
    syntax: 'tool:NAME',
    help: 'The tool a tools/call invokes; * matches anything.',
    example: 'tool:get_weather',
    normalize: asIs,
    describe: (_op, v) => `it calls ${v.includes('*') ? `a tool matching ${v}` : `the tool ${v}`}`,
    compile: (_op, v) => {
      const m = globMatcher(v);
      return (ex) => ex.method === 'tools/call' && ex.target !== undefined && m(ex.target);
    },
  },
  {
    field: 'id',
    ops: [':'],
    syntax: 'id:7 | id:"7"',
    help: 'JSON-RPC id; the JSON type matters: id:7 is the number, id:"7" the string.',
    example: 'id:7',
    normalize: (raw, quoted) => idValue(raw, quoted),
    describe: (_op, v) => (v.startsWith('"') ? `the JSON-RPC id is the string ${v}` : `the JSON-RPC id is the number ${v}`),
    compile: (_op, v) => {
      const id = JSON.parse(v) as string | number;
      return (ex) => ex.rpcId === id;
    },
  },
  {
    field: 'dir',
    ops: [':'],
    syntax: 'dir:c2s | dir:s2c',
    help: 'Who sent it: c2s = the client (its requests and notifications), s2c = the server.',
    example: 'dir:s2c',
    values: DIRECTIONS,
    normalize: oneOf(DIRECTIONS),
    describe: (_op, v) => (v === 'c2s' ? 'the client sent it' : 'the server sent it'),
    compile: (_op, v) => {
      const requester = v === 'c2s' ? 'client' : 'server';
      return (ex) => (ex.requester === 'none' ? ex.direction === v : ex.requester === requester);
    },
  },
  {
    field: 'kind',
    ops: [':'],
    syntax: 'kind:request|notification|invalid|http|probe',
    help: 'Row kind: a request with its answer, a lone notification, unparseable traffic, an HTTP request at the door (http), or one of those that only probed (probe: HTML GET, HEAD, crawler, favicon).',
    example: 'kind:notification',
    values: KINDS,
    normalize: oneOf(KINDS),
    describe: (_op, v) =>
      v === 'invalid' ? 'it is invalid traffic' : v === 'http' ? 'it is an HTTP request at the door' : v === 'probe' ? 'it is a probe (not MCP traffic)' : `it is a ${v}`,
    compile: (_op, v) => (ex) => ex.kind === v,
    compileDoor: (_op, v) => (v === 'http' ? () => true : v === 'probe' ? (r) => probeReason(r) !== undefined : never),
  },
  {
    field: 'status',
    ops: [':'],
    syntax: 'status:STATUS | status:err',
    help: 'Outcome: ok, pending, protocol_error, business_error, transport_error, cancelled, orphan, invalid; err = any failure.',
    example: 'status:err',
    values: STATUS_VALUES,
    normalize: oneOf(STATUS_VALUES),
    describe: (_op, v) =>
      v === 'err' ? 'it failed (protocol, business or transport error, invalid, or an answer hosts reject)' : `its status is ${v.replace('_', ' ')}`,
    compile: (_op, v) => {
      if (v === 'err') return (ex) => (ERROR_STATUSES as readonly string[]).includes(ex.status) || ex.brokeHostRules !== undefined;
      return (ex) => ex.status === v;
    },
  },
  {
    field: 'session',
    ops: [':', '='],
    syntax: 'session:KEY | session=KEY',
    help: 'Session key, or the start of it; session= matches the whole key only.',
    example: 'session:3f9a',
    normalize: asIs,
    describe: (op, v) => (op === '=' ? `its session key is ${v}` : `its session key starts with ${v}`),
    compile: (op, v) => (op === '=' ? (ex) => ex.sessionKey === v : (ex) => ex.sessionKey.startsWith(v)),
    compileDoor: (op, v) => (op === '=' ? (r) => r.sessionKey === v : (r) => r.sessionKey !== undefined && r.sessionKey.startsWith(v)),
  },
  {
    field: 'conversation',
    ops: [':'],
    syntax: 'conversation:KEY',
    help: "A conversation (c1042): every session the host churned through in it, as one timeline.",
    example: 'conversation:c1',
    normalize: asIs,
    describe: (_op, v) => `it belongs to conversation ${v}`,
    // Session-less exchanges carry their own conversation; the others follow their session's.
    compile: (_op, v) => (ex, ctx) => (ex.conversation ?? ctx?.session?.conversationKey) === v,
  },
  {
    field: 'client',
    ops: [':'],
    syntax: 'client:NAME',
    help: "Part of the client's name (label, clientInfo name or User-Agent), any case.",
    example: 'client:claude',
    normalize: asIs,
    describe: (_op, v) => `the client's name contains ${quote(v)}`,
    compile: (_op, v) => {
      const needle = v.toLowerCase();
      return (_ex, ctx) => clientNames(ctx).some((n) => n.includes(needle));
    },
    compileDoor: (_op, v) => {
      const needle = v.toLowerCase();
      return (r) => (r.userAgent ?? '').toLowerCase().includes(needle);
    },
  },
  {
    field: 'code',
    ops: [':'],
    syntax: 'code:N',
    help: 'JSON-RPC error code of the answer.',
    example: 'code:-32602',
    normalize: (raw) => (/^-?\d+$/.test(raw) ? String(Number(raw)) : { error: 'an error code is an integer such as -32602' }),
    describe: (_op, v) => `the error code is ${v}`,
    compile: (_op, v) => {
      const code = Number(v);
      return (ex) => ex.errorCode === code;
    },
  },
  {
    field: 'rev',
    ops: [':'],
    syntax: 'rev:REVISION',
    help: "The session's protocol revision; * matches anything.",
    example: 'rev:2025-06-18',
    normalize: asIs,
    describe: (_op, v) => globDescription('the protocol revision', v),
    compile: (_op, v) => {
      const m = globMatcher(v);
      return (_ex, ctx) => ctx?.session?.protocolVersion !== undefined && m(ctx.session.protocolVersion);
    },
  },
  {
    field: 'latency',
    ops: ['>', '<'],
    syntax: 'latency>MS | latency<MS',
    help: 'Time from request to answer, in ms (or with s: 1.5s).',
    example: 'latency>500',
    normalize: (raw) => {
      const v = raw.toLowerCase();
      return parseDuration(v) === undefined ? { error: 'a latency is a number of ms, like 500 or 1.5s' } : v;
    },
    describe: (op, v) => `it took ${op === '>' ? 'longer' : 'less'} than ${parseDuration(v)} ms`,
    compile: (op, v) => {
      const limit = parseDuration(v)!;
      return (ex) => compare(op, ex.latencyMs, limit);
    },
    compileDoor: (op, v) => {
      const limit = parseDuration(v)!;
      return (r) => compare(op, r.endMs, limit);
    },
  },
  {
    field: 'size',
    ops: ['>', '<'],
    syntax: 'size>BYTES | size<BYTES',
    help: 'Request plus response body size; 10kb and 1mb suffixes work.',
    example: 'size>10kb',
    normalize: (raw) => {
      const v = raw.toLowerCase();
      return parseSize(v) === undefined ? { error: 'a size is a number of bytes, like 10000, 10kb or 1mb' } : v;
    },
    describe: (op, v) => `its bodies are ${op === '>' ? 'larger' : 'smaller'} than ${describeBytes(parseSize(v)!)}`,
    compile: (op, v) => {
      const limit = parseSize(v)!;
      return (ex) => compare(op, ex.size, limit);
    },
    compileDoor: (op, v) => {
      const limit = parseSize(v)!;
      return (r) => compare(op, r.requestBytes + r.responseBytes, limit);
    },
  },
  {
    field: 'has',
    ops: [':'],
    syntax: 'has:diag',
    help: 'Rows with at least one diagnostic.',
    example: 'has:diag',
    values: HAS_VALUES,
    normalize: oneOf(HAS_VALUES),
    describe: () => 'it has diagnostics',
    compile: () => (ex) => ex.diagnostics > 0,
  },
  {
    field: 'diag',
    ops: [':'],
    syntax: 'diag:CODE',
    help: 'Rows with a diagnostic of this code; * matches anything.',
    example: 'diag:phantom-tool',
    normalize: asIs,
    describe: (_op, v) => (v.includes('*') ? `it has a diagnostic whose code matches ${v}` : `it has a ${v} diagnostic`),
    compile: (_op, v) => {
      const m = globMatcher(v);
      return (_ex, ctx) => ctx?.diagnosticCodes?.some(m) ?? false;
    },
  },
  {
    field: 'http.method',
    ops: [':'],
    syntax: 'http.method:VERB',
    help: 'HTTP requests at the door with this method (GET, POST, OPTIONS, …), any case.',
    example: 'http.method:OPTIONS',
    values: HTTP_METHODS,
    normalize: (raw) => (/^[A-Za-z]+$/.test(raw) ? raw.toUpperCase() : { error: 'an HTTP method is a word such as GET or POST' }),
    describe: (_op, v) => `it is an HTTP ${v} request`,
    compile: () => never,
    compileDoor: (_op, v) => (r) => r.method.toUpperCase() === v,
  },
  {
    field: 'http.path',
    ops: [':'],
    syntax: 'http.path:PATH',
    help: 'HTTP requests at the door to this path (query left out); * matches anything: http.path:/.well-known/*',
    example: 'http.path:/.well-known/*',
    normalize: asIs,
    describe: (_op, v) => globDescription('the HTTP path', v),
    compile: () => never,
    compileDoor: (_op, v) => {
      const m = globMatcher(v);
      return (r) => m(pathnameOf(r.path));
    },
  },
  {
    field: 'http.status',
    ops: [':', '>', '<'],
    syntax: 'http.status:404 | http.status:4xx | http.status:none | http.status>399',
    help: 'HTTP requests at the door by the status the client got: exact, a class (4xx), none (no answer), or above/below.',
    example: 'http.status:4xx',
    normalize: normalizeStatus,
    describe: describeStatus,
    compile: () => never,
    compileDoor: compileStatus,
  },
];

const BY_NAME = new Map<string, FieldSpec>(FIELD_SPECS.map((s) => [s.field, s]));

export function fieldSpec(name: string): FieldSpec | undefined {
  return BY_NAME.get(name);
}

export const FIELD_NAMES: readonly FilterField[] = FIELD_SPECS.map((s) => s.field);
