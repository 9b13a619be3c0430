/**
 * Builds an export from a request: chooses the frames (session, filter, one exchange), redacts
 * them unless the user opted out, and writes JSONL, HAR or curl. The API route and the CLI both
 * call this, so they export byte for byte the same thing.
 */
import { compileDoorFilter, parseFilter, type CaptureMark, type DoorPredicate, type DoorRecord, type ExportPreview, type Frame } from '@mcpscope/protocol';
import { redactDoorRecord } from '../redaction/door-redaction.js';
import { Redactor, checkRedactList } from '../redaction/export-redaction.js';
import type { CaptureReader, ExchangeFinder, Selection } from '../capture/capture-reader.js';
import { CaptureQuery } from '../capture/capture-query.js';
import type { ErrorCode } from '../core/errors.js';
import { JSONL_FORMAT, JSONL_VERSION, jsonlFrameLine, jsonlHeaderLine, jsonlLinkLine, jsonlMarkLine, jsonlRequestLine } from './jsonl.js';
import { exchangeOpener, type StoredLink } from '../capture/replay-links.js';
import { writeHar } from './har-writer.js';
import { toCurl } from './curl.js';
import { VERSION } from '../core/version.js';

/** Kept in step with apps/proxy/package.json. */
/** Written into every export (the HAR creator, the JSONL header). */
export const MCPSCOPE_VERSION = VERSION;

export const EXPORT_FORMATS = ['jsonl', 'har', 'curl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportRequest {
  format: ExportFormat;
  filter?: string;
  session?: string;
  /** One exchange (required for curl). */
  exchange?: string;
  /** Exactly these exchanges (a golden capture: the chosen calls and their handshakes). */
  exchanges?: readonly string[];
  /** Extra keys or JSON paths to redact. */
  redact?: readonly string[];
  /** The explicit opt-out: export secrets as captured. */
  unredacted?: boolean;
}

export type ExportErrorCode = Extract<ErrorCode, 'bad_filter' | 'bad_redact' | 'not_found' | 'bad_param'>;

export interface ExportError {
  ok: false;
  code: ExportErrorCode;
  message: string;
}

export interface ExportOutput {
  ok: true;
  contentType: string;
  filename: string;
  /** The file, in pieces; pull them lazily. */
  chunks: Iterable<string>;
  /** Complete once `chunks` has been read to the end. */
  redactor: Redactor;
}

interface Plan {
  selection: Selection;
  /** The filtered query (the API's: SQL pushdown, then the matcher), for `filter` selections. */
  find: ExchangeFinder;
  redactor: Redactor;
  /** Which door records go along (none when one exchange is exported). */
  requests?: DoorPredicate;
}

function plan(source: CaptureReader, req: ExportRequest): Plan | ExportError {
  const redactProblem = checkRedactList(req.redact ?? []);
  if (redactProblem) return { ok: false, code: 'bad_redact', message: redactProblem };
  const selection: Selection = {};
  if (req.filter !== undefined && req.filter.trim() !== '') {
    const parsed = parseFilter(req.filter);
    if (!parsed.ok) return { ok: false, code: 'bad_filter', message: `filter "${req.filter}": ${parsed.error.message} (at position ${parsed.error.position})` };
    if (parsed.filter !== null) selection.filter = parsed.filter;
  }
  if (req.session) selection.session = req.session;
  if (req.exchange !== undefined) {
    if (!source.exchange(req.exchange)) return { ok: false, code: 'not_found', message: `no exchange ${req.exchange}` };
    selection.exchangeIds = [req.exchange];
  }
  if (req.exchanges !== undefined) selection.exchangeIds = req.exchanges;
  const query = new CaptureQuery(source);
  const find: ExchangeFinder = (filter, limit, before) => query.exchanges(filter, limit, before);
  const out: Plan = { selection, find, redactor: new Redactor({ enabled: !req.unredacted, extra: req.redact ?? [] }) };
  if (req.exchange === undefined && req.exchanges === undefined) {
    // Door records go along, selected by the same filter (fields about exchanges match none).
    const byFilter = compileDoorFilter(selection.filter ?? null);
    out.requests = req.session === undefined ? byFilter : (r) => r.sessionKey === req.session && byFilter(r);
  }
  return out;
}

/** The marks an export carries: all of them with the capture or a filtered view of it, none with one exchange. */
function marks(source: CaptureReader, req: ExportRequest): CaptureMark[] {
  return req.exchange === undefined && req.exchanges === undefined ? source.marks.list() : [];
}

export function buildExport(source: CaptureReader, req: ExportRequest, now = new Date()): ExportOutput | ExportError {
  const p = plan(source, req);
  if ('ok' in p) return p;
  const { redactor } = p;
  const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const frames = () => redacted(source, p);
  const requests = () => redactedRequests(source, p.requests, redactor);
  const redaction = { enabled: redactor.options.enabled, rules: redactor.rules() };
  switch (req.format) {
    case 'jsonl': {
      const header = jsonlHeaderLine({
        format: JSONL_FORMAT,
        version: JSONL_VERSION,
        exportedAt: now.toISOString(),
        generator: `mcpscope ${MCPSCOPE_VERSION}`,
        ...(req.filter ? { filter: req.filter } : {}),
        ...(req.session ? { session: req.session } : {}),
        redaction,
      });
      // Links go along when both of their exchanges did: the seqs written are noted on the way.
      const written = new Set<number>();
      const frameLine = (frame: Frame) => {
        written.add(frame.seq);
        return jsonlFrameLine(frame);
      };
      const links = () => linksWithin(source.replayLinks.all(), written);
      return { ok: true, contentType: 'application/x-ndjson; charset=utf-8', filename: `mcpscope-${stamp}.jsonl`, chunks: concat([header], mapIterable(lazy(frames), frameLine), mapIterable(lazy(requests), jsonlRequestLine), mapIterable(lazy(links), jsonlLinkLine), mapIterable(lazy(() => marks(source, req)), jsonlMarkLine)), redactor };
    }
    case 'har': {
      const chunks = lazy(() => [`${JSON.stringify(writeHar(frames(), { generatorVersion: MCPSCOPE_VERSION, redaction, requests: requests(), ...(req.filter ? { filter: req.filter } : {}), ...(req.session ? { session: req.session } : {}) }), null, 2)}\n`]);
      return { ok: true, contentType: 'application/json; charset=utf-8', filename: `mcpscope-${stamp}.har`, chunks, redactor };
    }
    case 'curl': {
      if (req.exchange === undefined) return { ok: false, code: 'bad_param', message: 'curl exports one request: give exchange=ID' };
      const request = [...frames()].find((f) => f.direction === 'c2s' && f.kind === 'data');
      const curl = request && toCurl(request);
      if (!curl || !curl.ok) return { ok: false, code: 'bad_param', message: curl?.message ?? 'this exchange has no request sent over HTTP' };
      return { ok: true, contentType: 'text/plain; charset=utf-8', filename: `mcpscope-${req.exchange}.sh`, chunks: [curl.command], redactor };
    }
  }
}

/** What an export would contain and redact, without writing it (the dashboard shows this first). */
export function previewExport(source: CaptureReader, req: ExportRequest): ExportPreview | ExportError {
  const p = plan(source, req);
  if ('ok' in p) return p;
  let frames = 0;
  const sessions = new Set<string>();
  const exchanges = new Set<string>();
  const seqs = new Set<number>();
  for (const frame of redacted(source, p)) {
    frames++;
    sessions.add(frame.sessionKey);
    seqs.add(frame.seq);
  }
  for (const ex of source.exchangesInCaptureOrder(req.session)) if (ex.frameSeqs.some((s) => seqs.has(s))) exchanges.add(ex.id);
  return { frames, exchanges: exchanges.size, sessions: sessions.size, redaction: p.redactor.report() };
}

/** The links whose two exchanges were both opened by a frame in `seqs` (an exchange id starts with that frame's seq). */
function linksWithin(links: readonly StoredLink[], seqs: ReadonlySet<number>): StoredLink[] {
  return links.filter((l) => seqs.has(exchangeOpener(l.exchangeId)) && seqs.has(exchangeOpener(l.replayOf)));
}

/** Door records the plan selects, through the export's redactor (after the frames taught it). */
function* redactedRequests(source: CaptureReader, keep: DoorPredicate | undefined, redactor: Redactor): Iterable<DoorRecord> {
  if (!keep) return;
  for (const record of source.requests()) if (keep(record)) yield redactDoorRecord(redactor, record);
}

/** Two passes: learn the secret values, then redact them and their echoes. */
function* redacted(source: CaptureReader, { selection, find, redactor }: Plan): Iterable<Frame> {
  if (redactor.options.enabled) for (const frame of source.select(selection, find)) redactor.learn(frame);
  for (const frame of source.select(selection, find)) yield redactor.frame(frame);
}

function* mapIterable<T, U>(items: Iterable<T>, fn: (item: T) => U): Iterable<U> {
  for (const item of items) yield fn(item);
}

function* concat<T>(...parts: Iterable<T>[]): Iterable<T> {
  for (const part of parts) yield* part;
}

function* lazy<T>(make: () => Iterable<T>): Iterable<T> {
  yield* make();
}
