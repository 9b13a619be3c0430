/**
 * A loopback OTLP/HTTP trace receiver for tests: it decodes what arrives with the official OTLP
 * protobuf definitions (opentelemetry-proto, as compiled into @opentelemetry/otlp-transformer
 * 0.216's generated code, installed as `otlp-transformer-protos`), or reads OTLP/JSON, and keeps
 * the spans. It can answer 200, answer 503 (what a collector says when it sheds load), or hang
 * without answering, to show what the tap does when the backend is down or slow.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
interface ProtoType {
  decode(buffer: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const proto = require('otlp-transformer-protos/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } };
};
const ExportTraceServiceRequest = proto.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type AttributeMap = Record<string, unknown>;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: AttributeMap;
  events: { name: string; timeNs: bigint; attributes: AttributeMap }[];
  links: { traceId: string; spanId: string; attributes: AttributeMap }[];
  /** OTLP StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: AttributeMap;
  scope: string;
}

export type ReceiverMode = 'ok' | '503' | 'hang';

export interface OtlpReceiver {
  /** The traces endpoint (`http://127.0.0.1:PORT/v1/traces`). */
  url: string;
  /** The bare origin, as `--otlp` or OTEL_EXPORTER_OTLP_ENDPOINT take it. */
  origin: string;
  spans: ReceivedSpan[];
  /** Every export request's body as it arrived (protobuf or JSON bytes), for scanning. */
  payloads: Buffer[];
  /** Export requests received (answered or not), and their content types. */
  requests: { contentType: string; path: string; headers: IncomingMessage['headers'] }[];
  mode: ReceiverMode;
  /** Resolves once at least `count` spans matching `where` arrived (polled; bounded by the test's timeout). */
  waitFor(count: number, where?: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(mode: ReceiverMode = 'ok'): Promise<OtlpReceiver> {
  const receiver = { spans: [] as ReceivedSpan[], payloads: [] as Buffer[], requests: [] as OtlpReceiver['requests'], mode };
  const hung: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? '');
      receiver.requests.push({ contentType, path: req.url ?? '', headers: req.headers });
      if (receiver.mode === 'hang') return void hung.push(res);
      if (receiver.mode === '503') {
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' }).end('overloaded');
        return;
      }
      const body = Buffer.concat(chunks);
      receiver.payloads.push(body);
      receiver.spans.push(...(contentType.includes('json') ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body)));
      res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' }).end(contentType.includes('json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(receiver, {
    url: `${origin}/v1/traces`,
    origin,
    async waitFor(count: number, where: (span: ReceivedSpan) => boolean = () => true) {
      for (;;) {
        const found = receiver.spans.filter(where);
        if (found.length >= count) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

// ── decoding ──────────────────────────────────────────────────────────────────────────────────

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  events?: { name: string; timeUnixNano: string | number; attributes?: KeyValue[] }[];
  links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[];
}

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const message = ExportTraceServiceRequest.decode(body);
  // Ids as hex (OTLP/JSON's spelling), 64-bit integers as decimal strings, enums as numbers.
  const object = ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number, bytes: Array, defaults: false }) as OtlpRequest;
  return flatten(object, (bytes) => Buffer.from(bytes as unknown as number[]).toString('hex'));
}

function fromJson(object: OtlpRequest): ReceivedSpan[] {
  return flatten(object, (id) => String(id).toLowerCase());
}

function flatten(request: OtlpRequest, id: (raw: string) => string): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: id(s.traceId),
          spanId: id(s.spanId),
          parentSpanId: s.parentSpanId && s.parentSpanId.length > 0 ? id(s.parentSpanId) : '',
          name: s.name,
          kind: s.kind ?? 0,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: (s.events ?? []).map((e) => ({ name: e.name, timeNs: BigInt(e.timeUnixNano), attributes: attributes(e.attributes) })),
          links: (s.links ?? []).map((l) => ({ traceId: id(l.traceId), spanId: id(l.spanId), attributes: attributes(l.attributes) })),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
          resource,
          scope: ss.scope?.name ?? '',
        });
      }
    }
  }
  return out;
}

function attributes(list: KeyValue[] | undefined): AttributeMap {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, value(kv.value)]));
}

function value(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  if (v.kvlistValue) return attributes(v.kvlistValue.values);
  return v.bytesValue;
}
