/**
 * OTLP export, assembled: live export of a running capture (compose/ hands it the pipeline's
 * batches and the capture reader) and export of a stored capture (the `export` command).
 * Spans follow OpenTelemetry's MCP semantic conventions (span-plan.ts).
 */
import type { OtlpStatus } from '@mcpscope/protocol';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpConfig } from './otlp-config.js';
import { BodyAttributes } from './span-bodies.js';
import { SpanSender } from './span-sender.js';
import { LiveOtlpExport, type LiveExportDeps } from './live-export.js';

export { resolveOtlpConfig, type OtlpConfig, type OtlpConfigResult } from './otlp-config.js';
export { exportExchanges, selectExchanges, type ExportSelection } from './capture-export.js';
export { BodyAttributes } from './span-bodies.js';
export { SpanSender } from './span-sender.js';

export interface LiveOtlp {
  status(): OtlpStatus;
  close(): Promise<void>;
}

export function startLiveOtlp(config: OtlpConfig, deps: Pick<LiveExportDeps, 'onBatch' | 'source'>, exporter?: SpanExporter): LiveOtlp {
  const sender = new SpanSender(config, exporter);
  const live = new LiveOtlpExport({ ...deps, sender, ...(config.bodies ? { bodies: new BodyAttributes() } : {}) });
  return { status: () => sender.status(), close: () => live.close() };
}
