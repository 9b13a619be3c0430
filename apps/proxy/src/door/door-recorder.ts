/**
 * Records every HTTP request at the tap's door as a DoorRecord: created when the request arrives
 * (so a preflight or a 404 is as visible as an MCP call; refused requests are counted per Host and
 * Origin, refusal-tally.ts), updated when the
 * answer's head goes out, as frames ride on it, and when it ends. Each change is handed to the
 * sink (the capture pipeline), which writes the record's latest state within the tick.
 *
 * Secrets never enter a record: header values are redacted as for frames, secret query values in
 * the path, `Location` and `Referer` are replaced by a marker, and the bodies kept (OAuth
 * endpoints and metadata documents only, at most DOOR_BODY_LIMIT bytes each) have their secret
 * fields redacted. On the MCP path the door counts bytes and links frames; it copies no body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { doorPathname, doorRole, type DoorRecord } from '@mcpscope/protocol';
import type { Refusal, RequestWatch } from '../core/request-watch.js';
import { isMcpEndpoint } from '../core/mcp-endpoint.js';
import { capturedHeaders } from '../upstream/captured-headers.js';
import { redactUrlSecrets } from '../redaction/redact-secrets.js';
import { BodyCapture, keepsBodies } from './body-capture.js';
import { watchResponse } from './response-watch.js';
import { DoorWatch, type DoorSink } from './door-watch.js';
import { RefusalTally } from './refusal-tally.js';

export interface DoorRecorderDeps {
  sink: DoorSink;
  now(): number;
  /** The MCP endpoint's path: its bodies are frames, not door bodies. */
  mcpPath: string;
}

export class DoorRecorder {
  private readonly connections = new WeakMap<Socket, number>();
  private connectionCount = 0;
  private readonly refusals: RefusalTally;

  constructor(private readonly deps: DoorRecorderDeps) {
    this.refusals = new RefusalTally(deps.sink);
  }

  watch(req: IncomingMessage, res: ServerResponse): RequestWatch {
    const { sink, now } = this.deps;
    const record = this.newRecord(req, now(), redactUrlSecrets(req.url ?? '/'));
    const withBodies = !record.mcp && keepsBodies(doorRole(record));
    const watch = new DoorWatch(record, sink, now, withBodies ? new BodyCapture() : undefined, withBodies ? new BodyCapture() : undefined);
    req.on('data', (chunk: Buffer) => watch.requestChunk(chunk));
    req.on('end', () => watch.requestEnded());
    watchResponse(res, watch);
    // 'close' follows 'finish' (in the next tick) or comes alone when the client left first.
    res.on('close', () => watch.finish(res.writableFinished ? 'complete' : 'client-gone'));
    watch.changed();
    return watch;
  }

  /**
   * A request the tap's Host/Origin guard refused (the tap answers 403): counted and sampled on
   * one record per Host and Origin pair (refusal-tally.ts), never recorded whole one by one.
   */
  refused(req: IncomingMessage, refusal: Refusal): void {
    const ts = this.deps.now();
    const path = redactUrlSecrets(req.url ?? '/');
    const request = { host: req.headers.host, origin: req.headers.origin, ts, method: req.method ?? 'GET', path, address: req.socket.remoteAddress ?? 'unknown' };
    this.refusals.refused(request, refusal, () => this.newRecord(req, ts, path));
  }

  /** A new record of a request as it arrives: its answer 'upstream' and under way until told otherwise. */
  private newRecord(req: IncomingMessage, ts: number, path: string): DoorRecord {
    const requestHeaders = capturedHeaders(req.headers);
    const record: DoorRecord = {
      id: this.deps.sink.nextDoorId(),
      rev: 0,
      ts,
      method: req.method ?? 'GET',
      path,
      answer: 'upstream',
      end: 'open',
      requestHeaders,
      responseHeaders: {},
      requestBytes: 0,
      responseBytes: 0,
      peer: this.peer(req.socket),
    };
    if (req.headers.host !== undefined) record.host = req.headers.host;
    if (requestHeaders['user-agent'] !== undefined) record.userAgent = requestHeaders['user-agent'];
    if (isMcpEndpoint(doorPathname(path), this.deps.mcpPath)) record.mcp = true;
    if (typeof req.headers['mcp-session-id'] === 'string') record.mcpSessionId = req.headers['mcp-session-id'];
    return record;
  }

  /**
   * A request Node's HTTP parser refused before the tap saw it (raw bytes in the URL, a broken
   * header): the door records what arrived and the status the client got. Bytes that are not
   * printable ASCII are kept as %XX escapes, so nothing is lost and nothing is mis-decoded.
   */
  parserRefused(err: Error & { code?: string; rawPacket?: Buffer }, socket: Socket, status: number): void {
    const raw = err.rawPacket ?? Buffer.alloc(0);
    // A connection that sent not one byte before Node's headersTimeout (a pre-opened or pooled
    // socket left unused, a TCP health check) asked for nothing: no request to record.
    if (raw.length === 0) return;
    const end = raw.indexOf('\r\n');
    const line = escapeBytes(raw.subarray(0, end === -1 ? Math.min(raw.length, 8192) : Math.min(end, 8192)));
    const [method = '?', target = '/'] = line.split(' ');
    const record: DoorRecord = {
      id: this.deps.sink.nextDoorId(),
      rev: 0,
      ts: this.deps.now(),
      method,
      path: redactUrlSecrets(target),
      status,
      answer: 'tap',
      end: 'complete',
      note: `Node's HTTP parser refused the request (${err.code ?? 'parse error'}); the tap answered ${status} without forwarding it.`,
      requestHeaders: {},
      responseHeaders: {},
      endMs: 0,
      requestBytes: raw.length,
      responseBytes: 0,
      peer: this.peer(socket),
    };
    this.deps.sink.doorChanged(record);
  }

  /** The client's end of the socket, with a serial per TCP connection. */
  private peer(socket: Socket): DoorRecord['peer'] {
    let connection = this.connections.get(socket);
    if (connection === undefined) {
      connection = ++this.connectionCount;
      this.connections.set(socket, connection);
    }
    const peer: DoorRecord['peer'] = { address: socket.remoteAddress ?? 'unknown', connection };
    if (socket.remotePort !== undefined) peer.port = socket.remotePort;
    return peer;
  }
}

/** Printable ASCII as is, every other byte as %XX. */
function escapeBytes(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += b > 0x20 && b < 0x7f && b !== 0x25 ? String.fromCharCode(b) : b === 0x20 ? ' ' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
