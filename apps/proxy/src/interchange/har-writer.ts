/**
 * Frames → HAR 1.2. One entry per HTTP request/response pair (frames sharing a `connectionId`,
 * and door records that carried no frames, see door-har.ts):
 * the request body is the c2s frame, the response body the s2c frame, or for an SSE response the
 * event stream text rebuilt from its events, which are also listed in `_sseEvents` with their
 * times. `_mcpscope` on each entry lists the frames in order, so mcpscope can import its own HAR
 * back frame for frame. Frames that rode no HTTP request (stdio) go in `log._mcpscope.frames`.
 */
import { formatSseEvent, type DoorRecord, type Frame } from '@mcpscope/protocol';
import { doorEntries } from './door-har.js';
import { queryOf, roundMs as round, toNameValues } from './har-values.js';
import type { Har, HarEntry, HarLog, McpscopeHarFrame } from './har-types.js';

export interface HarWriteOptions {
  generatorVersion: string;
  /** Door records: those that carried no frames become entries of their own (door-har.ts). */
  requests?: Iterable<DoorRecord>;
  redaction: { enabled: boolean; rules: string[] };
  filter?: string;
  session?: string;
}

export const HAR_EXTRA_VERSION = 1;

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function writeHar(frames: Iterable<Frame>, options: HarWriteOptions): Har {
  const groups = new Map<string, Frame[]>();
  const loose: NonNullable<HarLog['_mcpscope']>['frames'] = [];
  for (const frame of frames) {
    const conn = frame.http?.connectionId;
    if (!conn) {
      loose.push({ ...frameExtra(frame), sessionKey: frame.sessionKey, raw: frame.raw });
      continue;
    }
    // One connection id belongs to one HTTP exchange; the session key keeps imports apart.
    const key = `${frame.sessionKey}\u0000${conn}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(frame);
  }
  const records = options.requests ? [...options.requests] : [];
  const context = entryContext(records, groups.values());
  const entries = [...groups.values()].map((group) => toEntry(group, context));
  entries.push(...doorEntries(records));
  entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  const log: HarLog = {
    version: '1.2',
    creator: { name: 'mcpscope', version: options.generatorVersion },
    pages: [],
    entries,
    _mcpscope: {
      format: 'mcpscope-har',
      version: HAR_EXTRA_VERSION,
      redaction: options.redaction,
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.session ? { session: options.session } : {}),
      frames: loose,
    },
  };
  return { log };
}

function frameExtra(frame: Frame): McpscopeHarFrame {
  const extra: McpscopeHarFrame = { seq: frame.seq, ts: frame.ts, direction: frame.direction, transport: frame.transport, kind: frame.kind };
  if (frame.http?.sseId !== undefined) extra.sseId = frame.http.sseId;
  if (frame.http?.sseEvent !== undefined) extra.sseEvent = frame.http.sseEvent;
  // Data frames' text is in the bodies; only the rest needs its own copy.
  if (frame.kind !== 'data') extra.raw = frame.raw;
  return extra;
}

/**
 * What the frames of an HTTP request do not say themselves. A 202 Accepted (a notification, the
 * client's answer to sampling/elicitation/roots) has no response body, so no frame carries its
 * status: the door record of the request has it. A GET stream has no request body, so no frame
 * carries its Host: the door record has it, else the Host the client used for its POSTs.
 */
interface EntryContext {
  doorBySeq: Map<number, DoorRecord>;
  /** The Host most requests of the export were addressed to. */
  usualHost?: string;
}

function entryContext(records: DoorRecord[], groups: Iterable<Frame[]>): EntryContext {
  const doorBySeq = new Map<number, DoorRecord>();
  for (const r of records) for (const seq of r.frameSeqs ?? []) doorBySeq.set(seq, r);
  const hosts = new Map<string, number>();
  for (const group of groups) {
    const host = group.find((f) => f.http?.requestHeaders?.host)?.http?.requestHeaders?.host;
    if (host) hosts.set(host, (hosts.get(host) ?? 0) + 1);
  }
  const usualHost = [...hosts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return usualHost ? { doorBySeq, usualHost } : { doorBySeq };
}

function toEntry(frames: Frame[], context: EntryContext): HarEntry {
  const first = frames[0]!;
  const requestFrame = frames.find((f) => f.direction === 'c2s' && f.kind === 'data');
  const responseFrames = frames.filter((f) => f.direction === 's2c' && f.kind === 'data');
  const withStatus = frames.find((f) => f.http?.status !== undefined);
  const withResponseHeaders = frames.find((f) => f.http?.responseHeaders);
  const http = requestFrame?.http ?? first.http!;
  const door = frames.map((f) => context.doorBySeq.get(f.seq)).find((r) => r !== undefined);
  const requestHeaders = requestFrame?.http?.requestHeaders ?? first.http?.requestHeaders ?? door?.requestHeaders ?? {};
  const responseHeaders = withResponseHeaders?.http?.responseHeaders ?? {};
  const isSse = frames.some((f) => f.transport === 'sse' || f.transport === 'legacy-sse') || /^text\/event-stream/i.test(responseHeaders['content-type'] ?? '');
  const startTs = first.ts;
  const endTs = frames[frames.length - 1]!.ts;
  const firstResponseTs = (responseFrames[0] ?? frames.find((f) => f.direction === 's2c'))?.ts ?? endTs;

  const host = requestHeaders.host ?? door?.host ?? context.usualHost ?? 'localhost';
  const url = `http://${host}${http.path}`;
  const status = withStatus?.http?.status ?? door?.status ?? 0;
  const responseText = isSse ? responseFrames.map((f) => formatSseEvent({ data: f.raw, ...sseFields(f) })).join('') : responseFrames.map((f) => f.raw).join('');
  const mimeType = responseHeaders['content-type'] ?? (isSse ? 'text/event-stream' : responseFrames.length > 0 ? 'application/json' : 'x-unknown');

  const entry: HarEntry = {
    startedDateTime: new Date(startTs).toISOString(),
    time: round(Math.max(0, endTs - startTs)),
    request: {
      method: http.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toNameValues(requestHeaders),
      queryString: queryOf(http.path),
      headersSize: -1,
      bodySize: requestFrame ? utf8Length(requestFrame.raw) : 0,
    },
    response: {
      status,
      statusText: STATUS_TEXT[status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toNameValues(responseHeaders),
      content: { size: utf8Length(responseText), mimeType, text: responseText },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseFrames.length > 0 ? utf8Length(responseText) : status === 0 ? -1 : 0,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: round(Math.max(0, firstResponseTs - startTs)), receive: round(Math.max(0, endTs - firstResponseTs)), ssl: -1 },
    _mcpscope: { sessionKey: first.sessionKey, ...(http.connectionId ? { connectionId: http.connectionId } : {}), frames: frames.map(frameExtra) },
  };
  if (requestFrame) entry.request.postData = { mimeType: requestHeaders['content-type'] ?? 'application/json', text: requestFrame.raw };
  if (isSse) entry._sseEvents = responseFrames.map((f) => ({ type: 'receive' as const, time: f.ts / 1000, ...sseFields(f), data: f.raw }));
  if (status === 0) entry.response.comment = 'mcpscope saw no response status for this request (no response body was recorded)';
  return entry;
}

function sseFields(f: Frame): { event?: string; id?: string } {
  const out: { event?: string; id?: string } = {};
  if (f.http?.sseEvent !== undefined) out.event = f.http.sseEvent;
  if (f.http?.sseId !== undefined) out.id = f.http.sseId;
  return out;
}


const encoder = new TextEncoder();
const utf8Length = (text: string) => encoder.encode(text).length;
