/**
 * HAR → frames, for HARs written by mcpscope, Chrome DevTools (and Playwright's recordHar, which
 * writes the same format) or mitmproxy. JSON-RPC frames come out of the request and response
 * bodies, event-stream responses parsed with the same SseParser the tap uses. Entries that are not
 * MCP traffic (pages, scripts, OAuth endpoints) are skipped and counted; broken entries are
 * reported by number and the rest imports.
 *
 * mcpscope's own HARs carry `_mcpscope` frame lists: those rebuild the exact frames (times, SSE
 * ids, transport events) rather than what the bodies alone can tell.
 */
import { SseParser, classifyText, type FrameInput, type HttpInfo, type SseEvent, transportFrameText } from '@mcpscope/protocol';
import type { HarEntry, HarLog, McpscopeHarFrame } from './har-types.js';
import type { ImportProblem } from '@mcpscope/protocol';

export interface HarRead {
  frames: FrameInput[];
  problems: ImportProblem[];
  /** Entries that carried no MCP traffic. */
  skipped: number;
  entries: number;
}

/** How imported frames are renamed so they never mix with live ones. */
export interface ImportNaming {
  sessionKey(original: string): string;
  connectionId(original: string): string;
}

interface Ordered {
  frame: FrameInput;
  /** The original seq, known for mcpscope's own HARs. */
  seq?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readHar(doc: unknown, naming: ImportNaming): { ok: true; value: HarRead } | { ok: false; problem: ImportProblem } {
  if (!isObject(doc) || !isObject(doc.log) || !Array.isArray(doc.log.entries)) {
    return { ok: false, problem: { where: 'file', message: 'not a HAR file: expected {"log": {"entries": [...]}}' } };
  }
  const log = doc.log as unknown as HarLog;
  const ordered: Ordered[] = [];
  const problems: ImportProblem[] = [];
  let skipped = 0;
  log.entries.forEach((raw, index) => {
    const where = describeEntry(raw, index);
    const shaped = checkEntry(raw);
    if (shaped) {
      problems.push({ where, message: shaped });
      return;
    }
    const result = entryFrames(raw, index, naming);
    if (result.problem) problems.push({ where, message: result.problem });
    if (result.frames.length === 0) skipped++;
    ordered.push(...result.frames);
  });
  const loose = log._mcpscope?.frames;
  if (Array.isArray(loose)) {
    loose.forEach((f, i) => {
      if (!isObject(f) || typeof f.raw !== 'string' || typeof f.sessionKey !== 'string' || typeof f.ts !== 'number') {
        problems.push({ where: `log._mcpscope.frames[${i}]`, message: 'a frame needs "sessionKey", "ts" and "raw"' });
        return;
      }
      ordered.push({ seq: f.seq, frame: { ts: f.ts, sessionKey: naming.sessionKey(f.sessionKey), direction: f.direction, transport: f.transport, kind: f.kind, raw: f.raw } });
    });
  }
  // Capture order when every frame knows its seq, else time order. The sort is stable: equal
  // times keep file order (a request before its response).
  const bySeq = ordered.every((o) => o.seq !== undefined);
  ordered.sort(bySeq ? (a, b) => a.seq! - b.seq! : (a, b) => a.frame.ts - b.frame.ts);
  return { ok: true, value: { frames: ordered.map((o) => o.frame), problems, skipped, entries: log.entries.length } };
}

function describeEntry(raw: unknown, index: number): string {
  const req = isObject(raw) && isObject(raw.request) ? raw.request : undefined;
  const what = req && typeof req.method === 'string' && typeof req.url === 'string' ? ` (${req.method} ${req.url.slice(0, 120)})` : '';
  return `entry ${index + 1}${what}`;
}

/** The fields import needs; a sentence when one is missing. */
function checkEntry(raw: unknown): string | undefined {
  if (!isObject(raw)) return 'an entry must be an object';
  if (typeof raw.startedDateTime !== 'string' || Number.isNaN(Date.parse(raw.startedDateTime))) return '"startedDateTime" must be an ISO date';
  if (!isObject(raw.request) || typeof raw.request.method !== 'string' || typeof raw.request.url !== 'string') return '"request" needs "method" and "url"';
  if (!isObject(raw.response)) return '"response" is missing';
  try {
    new URL(raw.request.url);
  } catch {
    return `"request.url" is not a URL: ${raw.request.url.slice(0, 120)}`;
  }
  return undefined;
}

function entryFrames(entry: HarEntry, index: number, naming: ImportNaming): { frames: Ordered[]; problem?: string } {
  const url = new URL(entry.request.url);
  const startTs = Date.parse(entry.startedDateTime);
  const endTs = startTs + (typeof entry.time === 'number' && entry.time > 0 ? entry.time : 0);
  const requestHeaders = headerRecord(entry.request.headers);
  const responseHeaders = headerRecord(entry.response.headers);
  const status = typeof entry.response.status === 'number' ? entry.response.status : 0;
  const requestText = typeof entry.request.postData?.text === 'string' ? entry.request.postData.text : '';
  const responseText = bodyText(entry.response.content);
  const mime = (entry.response.content?.mimeType || responseHeaders['content-type'] || '').toLowerCase();
  const isSse = mime.startsWith('text/event-stream');
  const events = isSse ? sseEvents(responseText) : [];

  const extra = entry._mcpscope;
  const requestIsMcp = requestText !== '' && isJsonRpc(requestText);
  const responseIsMcp = isSse ? events.some((e) => isJsonRpc(e.data) || e.event === 'endpoint') : responseText !== '' && isJsonRpc(responseText);
  if (!extra && !requestIsMcp && !responseIsMcp) return { frames: [] };

  const original = extra?.sessionKey ?? requestHeaders['mcp-session-id'] ?? responseHeaders['mcp-session-id'] ?? (requestHeaders['user-agent'] ? `client:${requestHeaders['user-agent']}` : url.host);
  const sessionKey = naming.sessionKey(original);
  const base: HttpInfo = { method: entry.request.method, path: url.pathname + url.search, connectionId: naming.connectionId(extra?.connectionId ?? `e${index + 1}`) };
  const reqHttp: HttpInfo = { ...base, requestHeaders };
  const resHttp: HttpInfo = { ...base, status, responseHeaders };
  const s2cTransport = isSse ? 'sse' : 'http-json';

  // Body-derived frames, in the order the tap would have recorded them.
  const body: FrameInput[] = [];
  if (requestText !== '') body.push({ ts: startTs, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: requestText, http: reqHttp });
  if (isSse) {
    const times = Array.isArray(entry._sseEvents) ? entry._sseEvents : [];
    events.forEach((e, k) => {
      const http: HttpInfo = { ...resHttp };
      if (e.id !== undefined) http.sseId = e.id;
      if (e.event !== undefined) http.sseEvent = e.event;
      const time = times[k]?.time;
      body.push({ ts: typeof time === 'number' ? time * 1000 : endTs, sessionKey, direction: 's2c', transport: 'sse', kind: 'data', raw: e.data, http });
    });
  } else if (responseText !== '') {
    body.push({ ts: endTs, sessionKey, direction: 's2c', transport: s2cTransport, kind: 'data', raw: responseText, http: resHttp });
  }

  if (extra && Array.isArray(extra.frames)) {
    const exact = withMetadata(body, extra.frames, sessionKey, reqHttp, resHttp);
    if (exact) return { frames: exact };
    return { frames: body.map((frame) => ({ frame })), problem: 'its _mcpscope frame list does not match its bodies; imported from the bodies alone' };
  }
  const frames = body.map((frame) => ({ frame }));
  // A request that got no usable answer: what a browser saw as a failure is a transport error.
  if (requestIsMcp && !responseIsMcp && (status === 0 || status >= 400)) {
    const message = status === 0 ? 'the request failed before a response (HAR status 0)' : `HTTP ${status} ${entry.response.statusText ?? ''}`.trim();
    frames.push({ frame: { ts: endTs, sessionKey, direction: 's2c', transport: s2cTransport, kind: 'transport', raw: transportFrameText('upstream-error', message), http: resHttp } });
  }
  return { frames };
}

/** Puts mcpscope's own frame list back onto the body frames; undefined when they disagree. */
function withMetadata(body: FrameInput[], meta: McpscopeHarFrame[], sessionKey: string, reqHttp: HttpInfo, resHttp: HttpInfo): Ordered[] | undefined {
  const data = meta.filter((m) => m.kind === 'data');
  if (data.length !== body.length) return undefined;
  const out: Ordered[] = [];
  let next = 0;
  for (const m of meta) {
    if (m.kind === 'data') {
      const b = body[next++]!;
      if (b.direction !== m.direction) return undefined;
      const http: HttpInfo = { ...b.http! };
      delete http.sseId;
      delete http.sseEvent;
      if (m.sseId !== undefined) http.sseId = m.sseId;
      if (m.sseEvent !== undefined) http.sseEvent = m.sseEvent;
      out.push({ seq: m.seq, frame: { ...b, ts: m.ts, transport: m.transport, http } });
    } else {
      if (typeof m.raw !== 'string') return undefined;
      out.push({ seq: m.seq, frame: { ts: m.ts, sessionKey, direction: m.direction, transport: m.transport, kind: m.kind, raw: m.raw, http: m.direction === 'c2s' && m.kind !== 'transport' ? reqHttp : resHttp } });
    }
  }
  return out;
}

function isJsonRpc(text: string): boolean {
  return classifyText(text).kind !== 'invalid';
}

function sseEvents(text: string): SseEvent[] {
  const parser = new SseParser();
  // A stream cut off without its final blank line still carries its last event.
  const items = [...parser.push(text), ...parser.push('\n\n'), ...parser.end()];
  return items.filter((i): i is SseEvent => i.type === 'event' && i.hasData && i.data !== '');
}

function bodyText(content: HarEntry['response']['content'] | undefined): string {
  if (!content || typeof content.text !== 'string') return '';
  if (content.encoding !== 'base64') return content.text;
  try {
    const bytes = Uint8Array.from(atob(content.text), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

/** Lower-cased names; repeated headers joined as HTTP allows. Secrets are redacted by the caller. */
function headerRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(headers)) return out;
  for (const h of headers) {
    if (!isObject(h) || typeof h.name !== 'string' || typeof h.value !== 'string') continue;
    const name = h.name.toLowerCase();
    // HTTP/2 pseudo-headers (Chrome writes :authority, :path…) are not headers of the message.
    if (name.startsWith(':')) continue;
    out[name] = out[name] === undefined ? h.value : `${out[name]}, ${h.value}`;
  }
  return out;
}
