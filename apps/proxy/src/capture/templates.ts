/**
 * Templates (table templates, migration 12): what a capture's JSON rows repeat, stored once. A
 * template is an object's keys in order, each with its value when the value is shared (kept) or
 * without one when it is the row's own (cut): `[["host","127.0.0.1:3000"],["content-length"]]`. A
 * row stores `[id, ...the cut values in key order]` and reading puts the object back key for key,
 * so a reader gives the JSON it was given.
 *
 * Two levels. A header map keeps every value but the per-request ones (VOLATILE), so a client's
 * requests and a server's answers share a handful of templates, and a door record whose request
 * headers equal its first frame's names the same one. A frame's HTTP layer and a door record keep
 * the values that repeat from request to request (HTTP_KEPT, DOOR_KEPT) and cut the rest, their
 * header maps among them, which are stored as the maps' own references. Templates follow sessions
 * (the session id is a header and a door record's kept value): a client that opens a session per
 * call makes a template per call, which costs about what storing the JSON did.
 *
 * Exchange summaries (migration 13) keep what a session's exchanges share (EXCHANGE_KEPT); their
 * rows put the values SQL reads at fixed places first (EXCHANGE_SLOTS: `[id, frameSeqs, rpcId,
 * direction, ...the other cut values]`), so filter-sql.ts reads them from either layout.
 *
 * Invariants:
 * - A template's id is a hash of its text (content-addressed: any writer, on any thread, names a
 *   template alike without asking the store). A hash another text holds already is refused
 *   (`TemplateWriter.accepts`) and that row is stored as its own JSON; a write that would give an
 *   id a second text fails instead (the trigger of migration 12).
 * - A row stored as its own JSON (every frame and door record of a file from before migration 12,
 *   every summary from before 13, the refused ones, and summaries a replay link was added to
 *   after they were written) is an object, a packed row an array: readers read both.
 * - A template is written (or found equal) in the same transaction as every row that names it, so
 *   collecting the templates no row names (`collectUnreferencedTemplates`) never strands a row.
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';

type Headers = Record<string, string>;

/** Header names whose values differ from request to request; a header template cuts them. */
const VOLATILE = new Set(['content-length', 'date', 'traceparent', 'tracestate', 'baggage', 'sentry-trace', 'x-request-id', 'x-correlation-id', 'x-amzn-trace-id', 'cf-ray', 'etag', 'last-modified', 'expires', 'age']);

/** What a frame's HTTP layer shares with others of its endpoint; the rest is cut. */
const HTTP_KEPT = new Set(['method', 'path', 'status']);

/** What a door record shares with others of its client and session; the rest is cut. */
const DOOR_KEPT = new Set(['method', 'answer', 'end', 'host', 'userAgent', 'mcp', 'mcpSessionId', 'sessionKey']);

/** Header templates shorter than this stay inline: a reference would save next to nothing. */
const MIN_HEADER_TEMPLATE = 48;

/** A template (its id and text) and the reference a row keeps in place of the object. */
export interface Template {
  id: number;
  text: string;
  ref: unknown[];
}

/** Whether a writer may name a template by its id (see `TemplateWriter.accepts`). */
export type Accept = (template: Pick<Template, 'id' | 'text'>) => boolean;

function templateOf(object: object, cut: (name: string) => boolean, valueOf?: (name: string, value: unknown) => unknown): Template {
  const own = object as Record<string, unknown>;
  const ref: unknown[] = [0];
  // The text JSON.stringify gives the entries `[[name, kept value] | [name], …]`, written directly.
  let text = '[';
  for (const name of Object.keys(own)) {
    const value = own[name];
    // JSON leaves out a key whose value is undefined: so does the template.
    if (value === undefined) continue;
    if (text.length > 1) text += ',';
    if (cut(name)) {
      text += `[${jsonOfName(name)}]`;
      ref.push(valueOf ? valueOf(name, value) : value);
    } else text += `[${jsonOfName(name)},${jsonInArray(value)}]`;
  }
  text += ']';
  const id = idOf(text);
  ref[0] = id;
  return { id, text, ref };
}

/** The template of a header map, or undefined when it stays inline (absent, or too small to gain). */
export function headerTemplate(headers: Headers | undefined): Template | undefined {
  if (headers === undefined) return undefined;
  const template = templateOf(headers, (name) => VOLATILE.has(name));
  return template.text.length < MIN_HEADER_TEMPLATE ? undefined : template;
}

/** What carries header maps: a frame's HTTP layer, a door record. */
interface HeaderHolder {
  requestHeaders?: Headers;
  responseHeaders?: Headers;
}

/**
 * `holder` packed as its template's reference, JSON text, its header maps as references too; or
 * undefined when `accept` refuses its template (store the holder's own JSON). A header template it
 * refuses stays inline, as the map.
 */
function packHolder(holder: HeaderHolder, kept: ReadonlySet<string>, accept: Accept): string | undefined {
  const req = headerTemplate(holder.requestHeaders);
  const res = headerTemplate(holder.responseHeaders);
  const reqRef = req !== undefined && accept(req) ? req.ref : undefined;
  const resRef = res !== undefined && accept(res) ? res.ref : undefined;
  const template = templateOf(
    holder,
    (name) => !kept.has(name),
    (name, value) => (name === 'requestHeaders' ? (reqRef ?? value) : name === 'responseHeaders' ? (resRef ?? value) : value),
  );
  return accept(template) ? JSON.stringify(template.ref) : undefined;
}

/** A frame's HTTP layer as stored (see `packHolder`). */
export function packHttp(http: HeaderHolder, accept: Accept): string | undefined {
  return packHolder(http, HTTP_KEPT, accept);
}

/** A door record as stored (see `packHolder`). */
export function packDoorRecord(record: HeaderHolder, accept: Accept): string | undefined {
  return packHolder(record, DOOR_KEPT, accept);
}

/**
 * What an exchange summary shares with the others of its session, method and target; the rest is
 * cut. Its columns (exchanges) hold some of it too, but a reader of the summary alone gets it all.
 */
const EXCHANGE_KEPT = new Set(['sessionKey', 'requester', 'kind', 'method', 'target', 'status', 'errorCode', 'diagnostics', 'transportEvent', 'inputRequired', 'brokeHostRules', 'conversation']);

/**
 * The summary values SQL reads (filter-sql.ts): a packed summary holds them at fixed places after
 * its template's id, null where the summary has none (its template says which it has), then the
 * other cut values in key order.
 */
export const EXCHANGE_SLOTS = ['frameSeqs', 'rpcId', 'direction'] as const;
const SLOT_AT = new Map<string, number>(EXCHANGE_SLOTS.map((name, i) => [name, 1 + i]));

/**
 * Exchange summary templates by shape: the summary's key names in order, each followed by its kept
 * value (`shapeOfValue`) or by nothing, each part ended by U+0000 (names are the summary's fields
 * and never hold it, nor does a shaped value, so a shape names one template). Summaries of one
 * session, method and outcome share a shape: writing one costs a Map lookup, not the template's
 * JSON and its hash.
 */
const exchangeTemplates = new Map<string, Pick<Template, 'id' | 'text'>>();

/** An exchange summary as stored, `[id, ...slots, ...cut values]`; undefined when `accept` refuses its template. */
export function packExchange(summary: object, accept: Accept): string | undefined {
  let shape = '';
  const values: unknown[] = [0];
  for (let i = 0; i < EXCHANGE_SLOTS.length; i++) values.push(null);
  const own = summary as Record<string, unknown>;
  for (const name of Object.keys(own)) {
    const value = own[name];
    if (value === undefined) continue;
    const slot = SLOT_AT.get(name);
    if (slot !== undefined) values[slot] = value;
    else if (!EXCHANGE_KEPT.has(name)) values.push(value);
    shape += slot === undefined && EXCHANGE_KEPT.has(name) ? `${name}\u0000${shapeOfValue(value)}\u0000` : `${name}\u0000\u0000`;
  }
  let template = exchangeTemplates.get(shape);
  if (template === undefined) {
    template = exchangeTemplate(own);
    if (exchangeTemplates.size >= KNOWN_MAX) exchangeTemplates.clear();
    exchangeTemplates.set(shape, template);
  }
  if (!accept(template)) return undefined;
  values[0] = template.id;
  return JSON.stringify(values);
}

/**
 * A kept value in a shape, without U+0000: a string that holds none as itself after `s`, anything
 * else as its JSON (which escapes U+0000) after `j`. Two values share a shape part only if equal.
 */
function shapeOfValue(value: unknown): string {
  return typeof value === 'string' && !value.includes('\u0000') ? `s${value}` : `j${JSON.stringify(value)}`;
}

/** The template of a summary: every key in order, a kept one with its value. */
function exchangeTemplate(summary: Record<string, unknown>): Pick<Template, 'id' | 'text'> {
  const entries: unknown[] = [];
  for (const [name, value] of Object.entries(summary)) {
    if (value === undefined) continue;
    entries.push(!SLOT_AT.has(name) && EXCHANGE_KEPT.has(name) ? [name, value] : [name]);
  }
  const text = JSON.stringify(entries);
  return { id: idOf(text), text };
}

/**
 * The JSON path of a slotted summary value in `column` (a stored summary, packed or its own JSON),
 * for SQLite's json functions.
 */
export function summaryPathSql(column: string, name: (typeof EXCHANGE_SLOTS)[number]): string {
  return `(CASE WHEN ${column} LIKE '[%' THEN '$[${SLOT_AT.get(name)!}]' ELSE '$.${name}' END)`;
}

/** A 32-bit hash of a template's text (its id): collisions are handled, so the id stays short. */
function hash32(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  return h1 >>> 0;
}

/**
 * Template texts this thread hashed, with their ids: a template recurs from row to row, and a Map
 * finds its text faster than `hash32` reads it. Bounded like the writers' own memory.
 */
const idsByText = new Map<string, number>();

function idOf(text: string): number {
  let id = idsByText.get(text);
  if (id === undefined) {
    id = hash32(text);
    if (idsByText.size >= KNOWN_MAX) idsByText.clear();
    idsByText.set(text, id);
  }
  return id;
}

/** Key names as JSON: the few a capture's objects use, each written once. */
const namesAsJson = new Map<string, string>();

function jsonOfName(name: string): string {
  let json = namesAsJson.get(name);
  if (json === undefined) {
    json = JSON.stringify(name);
    if (namesAsJson.size >= KNOWN_MAX) namesAsJson.clear();
    namesAsJson.set(name, json);
  }
  return json;
}

/** `value` as JSON.stringify writes it as an array's item (where a value JSON has no text for is null). */
function jsonInArray(value: unknown): string {
  return (JSON.stringify(value) as string | undefined) ?? 'null';
}

/** Templates a writer or reader remembers, at most this many (then forgotten and read again). */
const KNOWN_MAX = 65_536;

/** The writer's side: decides whether a template may be named by its id on this connection. */
export class TemplateWriter {
  /** Template ids this writer stored or found, with their text. */
  private readonly known = new Map<number, string>();
  private lookup: SqliteStatement | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  /** Whether `template` may be named by its id: the id names this text, or no text yet. */
  accepts(template: Pick<Template, 'id' | 'text'>): boolean {
    const known = this.known.get(template.id);
    if (known !== undefined) return known === template.text;
    this.lookup ??= this.db.prepare('SELECT text FROM templates WHERE id = ?');
    const row = this.lookup.get(template.id) as { text: string } | undefined;
    if (row !== undefined && row.text !== template.text) return false;
    if (this.known.size >= KNOWN_MAX) this.known.clear();
    this.known.set(template.id, template.text);
    return true;
  }
}

/** A template as read: each key with its kept value, or alone when the row holds it. */
type Entries = ([string] | [string, unknown])[];

/** The readers' side: puts packed rows back as the objects they were. */
/** A template as `exchangeText` writes it (see `textTemplate`). */
type TextEntries = { key: string; kept: string | undefined; slot: number | undefined }[];

export class TemplateReader {
  private readonly templates = new Map<number, Entries>();
  private readonly textTemplates = new Map<number, TextEntries>();
  private lookup: SqliteStatement | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  /** A stored frame HTTP layer or door record (packed, or its own JSON) as the object it was. */
  read<T extends HeaderHolder>(text: string): T {
    const value = JSON.parse(text) as unknown;
    const holder = (Array.isArray(value) ? this.unpack(value) : value) as T;
    const req = holder.requestHeaders as unknown;
    const res = holder.responseHeaders as unknown;
    if (Array.isArray(req)) holder.requestHeaders = this.unpack(req) as Headers;
    if (Array.isArray(res)) holder.responseHeaders = this.unpack(res) as Headers;
    return holder;
  }

  /** JSON text of a stored row as it was given (the text itself when it is not packed). */
  text(stored: string): string {
    return stored.startsWith('[') ? JSON.stringify(this.read(stored)) : stored;
  }

  /** A stored exchange summary (packed by `packExchange`, or its own JSON) as the object it was. */
  exchange<T>(stored: string): T {
    const value = JSON.parse(stored) as unknown;
    if (!Array.isArray(value)) return value as T;
    const out: Record<string, unknown> = {};
    let next = 1 + EXCHANGE_SLOTS.length;
    for (const entry of this.template(value[0] as number)) {
      const slot = SLOT_AT.get(entry[0]);
      setKey(out, entry[0], entry.length === 2 ? entry[1] : slot !== undefined ? value[slot] : value[next++]);
    }
    return out as T;
  }

  /** JSON text of a stored exchange summary as it was given (the text itself when it is not packed). */
  exchangeText(stored: string): string {
    if (!stored.startsWith('[')) return stored;
    // Written piece by piece as JSON.stringify writes the object `exchange` makes, without making it.
    const value = JSON.parse(stored) as unknown[];
    let next = 1 + EXCHANGE_SLOTS.length;
    let out = '';
    for (const entry of this.textTemplate(value[0] as number)) {
      out += `${out === '' ? '{' : ','}${entry.key}${entry.kept ?? JSON.stringify(entry.slot !== undefined ? value[entry.slot] : value[next++])}`;
    }
    return out === '' ? '{}' : `${out}}`;
  }

  /** A template as text pieces: each key as JSON with its colon, a kept value as JSON, or where a slotted value is. */
  private textTemplate(id: number): TextEntries {
    let entries = this.textTemplates.get(id);
    if (entries === undefined) {
      entries = this.template(id).map((entry) => ({ key: `${JSON.stringify(entry[0])}:`, kept: entry.length === 2 ? JSON.stringify(entry[1]) : undefined, slot: SLOT_AT.get(entry[0]) }));
      if (this.textTemplates.size >= KNOWN_MAX) this.textTemplates.clear();
      this.textTemplates.set(id, entries);
    }
    return entries;
  }

  private unpack(ref: readonly unknown[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let next = 1;
    for (const entry of this.template(ref[0] as number)) setKey(out, entry[0], entry.length === 1 ? ref[next++] : entry[1]);
    return out;
  }

  private template(id: number): Entries {
    let entries = this.templates.get(id);
    if (entries === undefined) {
      this.lookup ??= this.db.prepare('SELECT text FROM templates WHERE id = ?');
      const row = this.lookup.get(id) as { text: string } | undefined;
      if (row === undefined) throw new Error(`capture file: template ${id} is missing`);
      entries = JSON.parse(row.text) as Entries;
      if (this.templates.size >= KNOWN_MAX) this.templates.clear();
      this.templates.set(id, entries);
    }
    return entries;
  }
}

function setKey(out: Record<string, unknown>, name: string, value: unknown): void {
  // JSON.parse makes `__proto__` an own key; plain assignment would set the prototype.
  if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

/**
 * Removes the templates no frame and no door record names; returns how many. A packed row names
 * its own template first and its header maps' as the first item of a cut value (other arrays
 * among its values may keep a template that could go: never one a row needs). The caller holds
 * the transaction.
 */
export function collectUnreferencedTemplates(db: SqliteDatabase): number {
  const named = [
    ['frames', 'http'],
    ['door_requests', 'record'],
  ]
    .flatMap(([table, column]) => [
      `SELECT json_extract(${column}, '$[0]') AS id FROM ${table} WHERE ${column} LIKE '[%'`,
      `SELECT json_extract(v.value, '$[0]') AS id FROM ${table}, json_each(${table}.${column}) v WHERE ${table}.${column} LIKE '[%' AND v.type = 'array'`,
    ])
    .concat("SELECT json_extract(summary, '$[0]') AS id FROM exchanges WHERE summary LIKE '[%'")
    .join(' UNION ');
  return db.prepare(`DELETE FROM templates WHERE id NOT IN (SELECT id FROM (${named}) WHERE id IS NOT NULL)`).run().changes as number;
}
