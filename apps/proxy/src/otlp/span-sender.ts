/**
 * Span plans into the OpenTelemetry SDK: a TracerProvider with preset ids, a BatchSpanProcessor,
 * and the OTLP/HTTP exporter (protobuf, or JSON when OTEL_EXPORTER_OTLP_PROTOCOL says so). The
 * SDK does the encoding, batching, retries (429/502/503/504 with backoff) and timeouts; this file
 * adds what the tap needs from it and the SDK does not expose: an exact count of what happened
 * to every span.
 *
 * Bounded: at most `maxQueueSize` spans are waiting (queued or being exported) at once. Live
 * capture `reserve`s a place for a span and it is dropped, and counted, when that many wait: a backend that is
 * down, slow or answering 503 never holds memory or the event loop of the tap. A stored capture
 * is `send`-ed: it waits for room instead, so nothing is dropped. Because the processor's own
 * queue is never fuller than ours, it never drops a span we did not count.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Link } from '@opentelemetry/api';
import { ExportResultCode, millisToHrTime, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpStatus } from '@mcpscope/protocol';
import { VERSION } from '../core/version.js';
import type { OtlpConfig } from './otlp-config.js';
import { PresetIds } from './span-ids.js';
import type { SpanPlan } from './span-plan.js';
import { redactSpanPlan } from './span-redaction.js';

/** How long closing waits for the last spans to go out before giving up on a backend that is down. */
const CLOSE_GRACE_MS = 3000;

export class SpanSender {
  private readonly ids = new PresetIds();
  private readonly provider: TracerProvider;
  private readonly tracer;
  private waiting = 0;
  private exported = 0;
  private dropped = 0;
  private failed = 0;
  private lastError: OtlpStatus['lastError'];
  private lastSuccessAt: number | undefined;
  private readonly roomWaiters: (() => void)[] = [];

  constructor(
    readonly config: OtlpConfig,
    /** Another exporter (benchmarks compare against none); the OTLP/HTTP one otherwise. */
    exporter?: SpanExporter,
  ) {
    const options = { url: config.url, timeoutMillis: config.exporterTimeoutMillis };
    const inner = exporter ?? (config.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options));
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over mcpscope's own defaults.
    const resource = resourceFromAttributes({ 'service.name': 'mcpscope', 'service.version': VERSION }).merge(detectResources({ detectors: [envDetector] }));
    this.provider = new TracerProvider({
      resource,
      idGenerator: this.ids,
      // Every span is exported; a sampler that dropped some would also break the count.
      sampler: new AlwaysOnSampler(),
      spanLimits: { eventCountLimit: 1024, attributeCountLimit: 256 },
      spanProcessors: [
        new BatchSpanProcessor({
          // The exporter gives up first (exporterTimeoutMillis ≤ exportTimeoutMillis); this guard is for one that never answers.
          exporter: new CountingExporter(inner, config.exportTimeoutMillis + 1000, (count, result) => this.settled(count, result)),
          maxQueueSize: config.maxQueueSize,
          maxExportBatchSize: config.maxExportBatchSize,
          scheduledDelayMillis: config.scheduledDelayMillis,
          exportTimeoutMillis: config.exportTimeoutMillis,
        }),
      ],
    });
    this.tracer = this.provider.getTracer('mcpscope', VERSION);
  }

  /**
   * Takes a place for one span, or drops it (counted) when `maxQueueSize` spans wait already.
   * The place is then filled by `start` or given back by `abandon`.
   */
  reserve(): boolean {
    if (this.waiting >= this.config.maxQueueSize) {
      this.dropped++;
      return false;
    }
    this.waiting++;
    return true;
  }

  /** Gives a reserved place back: the span could not be built (counted as failed). */
  abandon(reason: string): void {
    this.waiting--;
    this.failed++;
    this.lastError = { message: reason, at: Date.now() };
    this.wake();
  }

  /** Hands a span to the exporter once there is room (nothing is dropped). */
  async send(plan: SpanPlan): Promise<void> {
    while (this.waiting >= this.config.maxQueueSize) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    this.waiting++;
    this.start(plan);
  }

  status(): OtlpStatus {
    const status: OtlpStatus = {
      enabled: true,
      endpoint: this.config.url,
      protocol: this.config.protocol,
      bodies: this.config.bodies,
      waiting: this.waiting,
      exported: this.exported,
      dropped: this.dropped,
      failed: this.failed,
      maxQueueSize: this.config.maxQueueSize,
    };
    if (this.lastError) status.lastError = this.lastError;
    if (this.lastSuccessAt !== undefined) status.lastSuccessAt = this.lastSuccessAt;
    return status;
  }

  /** Sends what is queued now; resolves when the exporter has answered for every span (or given up on it). */
  async flush(): Promise<void> {
    await this.provider.forceFlush().catch(() => undefined);
    // An export the processor started on its own timer is not part of forceFlush: wait it out too.
    while (this.waiting > 0) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
  }

  /** Sends what is left, waiting at most CLOSE_GRACE_MS for a backend that is down. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.provider.shutdown().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
  }

  /** Starts and ends the span of a plan whose place is reserved; what it carries is redacted first (span-redaction.ts). */
  start(unredacted: SpanPlan): void {
    const plan = redactSpanPlan(unredacted);
    this.ids.preset(plan.ids);
    const links: Link[] = plan.links.map((l) => ({ context: { traceId: l.ids.traceId, spanId: l.ids.spanId, traceFlags: 1, isRemote: true }, attributes: l.attributes }));
    const span = this.tracer.startSpan(
      plan.name,
      { kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.SERVER, startTime: millisToHrTime(plan.startMs), attributes: plan.attributes, links },
      ROOT_CONTEXT,
    );
    for (const event of plan.events) span.addEvent(event.name, event.attributes, millisToHrTime(event.timeMs));
    if (plan.error) span.setStatus({ code: SpanStatusCode.ERROR, message: plan.error.message });
    span.end(millisToHrTime(plan.endMs));
  }

  private settled(count: number, result: ExportResult): void {
    this.waiting -= count;
    if (result.code === ExportResultCode.SUCCESS) {
      this.exported += count;
      this.lastSuccessAt = Date.now();
    } else {
      this.failed += count;
      this.lastError = { message: result.error?.message || 'export failed', at: Date.now() };
    }
    this.wake();
  }

  private wake(): void {
    for (const wake of this.roomWaiters.splice(0)) wake();
  }
}

/**
 * The exporter, with every batch's outcome reported exactly once: a batch the exporter never
 * answers for (a backend that hangs past every timeout) is counted failed after the processor's
 * export timeout, and a late answer is then ignored.
 */
class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly timeoutMs: number,
    private readonly onSettled: (count: number, result: ExportResult) => void,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    let settled = false;
    const settle = (result: ExportResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.onSettled(spans.length, result);
      resultCallback(result);
    };
    const timer = setTimeout(() => settle({ code: ExportResultCode.FAILED, error: new Error(`no answer from the OTLP endpoint within ${this.timeoutMs} ms`) }), this.timeoutMs);
    timer.unref();
    try {
      this.inner.export(spans, settle);
    } catch (err) {
      settle({ code: ExportResultCode.FAILED, error: err as Error });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
