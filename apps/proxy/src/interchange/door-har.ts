/**
 * Door records → HAR 1.2 entries: HAR has a place for every HTTP request, so a request that
 * carried no MCP frames (discovery, OAuth, probes, preflights, refused requests) becomes an entry
 * of its own, with its headers, the bodies mcpscope kept (OAuth endpoints and metadata only,
 * possibly cut: `comment` says so) and its timings. Requests that carried frames already have an
 * entry built from those frames. `_mcpscopeRequest` says who answered and how it ended; mcpscope's
 * HAR import skips these entries (they carry no MCP traffic).
 */
import type { DoorBody, DoorRecord } from '@mcpscope/protocol';
import type { HarEntry } from './har-types.js';
import { queryOf, roundMs as round, toNameValues as nameValues } from './har-values.js';

export function doorEntries(records: Iterable<DoorRecord>): HarEntry[] {
  const out: HarEntry[] = [];
  for (const r of records) if (!r.frameCount) out.push(doorEntry(r));
  return out;
}

export function doorEntry(r: DoorRecord): HarEntry {
  const proto = (r.requestHeaders['x-forwarded-proto'] ?? 'http').split(',')[0]!.trim() === 'https' ? 'https' : 'http';
  const url = `${proto}://${r.host ?? 'localhost'}${r.path}`;
  const firstByte = r.firstByteMs ?? r.endMs ?? 0;
  const entry: HarEntry = {
    startedDateTime: new Date(r.ts).toISOString(),
    time: round(r.endMs ?? firstByte),
    request: {
      method: r.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(r.requestHeaders),
      queryString: queryOf(r.path),
      headersSize: -1,
      bodySize: r.requestBytes,
    },
    response: {
      status: r.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(r.responseHeaders),
      content: { size: r.responseBytes, mimeType: r.responseHeaders['content-type'] ?? 'x-unknown', ...(r.responseBody ? { text: r.responseBody.text } : {}) },
      redirectURL: r.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: r.status === undefined ? -1 : r.responseBytes,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: round(firstByte), receive: round(Math.max(0, (r.endMs ?? firstByte) - firstByte)), ssl: -1 },
    _mcpscopeRequest: { id: r.id, answer: r.answer, end: r.end, peer: r.peer, ...(r.note !== undefined ? { note: r.note } : {}) },
  };
  if (r.requestBody) entry.request.postData = { mimeType: r.requestHeaders['content-type'] ?? 'application/octet-stream', text: r.requestBody.text, ...cut(r.requestBody) };
  if (r.responseBody?.truncated) entry.response.content.comment = cut(r.responseBody).comment;
  if (r.status === undefined) entry.response.comment = r.note ?? 'the client got no answer';
  return entry;
}

function cut(body: DoorBody): { comment?: string } {
  return body.truncated ? { comment: `mcpscope kept the first ${body.text.length} characters of ${body.size} bytes` } : {};
}
