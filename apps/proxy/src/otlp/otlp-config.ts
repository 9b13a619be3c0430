/**
 * Where spans go and how they are batched, from `--otlp URL`, `--otlp-bodies` and the standard
 * OpenTelemetry environment variables. Pure: options and an environment in, a config or a message
 * saying what is wrong out.
 *
 * Export is on with `--otlp URL`, or when the environment names an endpoint
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT), which is how OpenTelemetry
 * software is pointed at a collector; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it
 * off. The URL resolves as the SDK resolves its variables: a bare origin (`http://host:4318`) gets
 * `/v1/traces`, a URL with a path is used as it is. Headers, timeout, compression and
 * certificates (OTEL_EXPORTER_OTLP_*) are read by the SDK's exporter itself.
 */

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpConfig {
  /** The traces endpoint spans are POSTed to. */
  url: string;
  /** Which variable or flag named it, for the banner. */
  from: string;
  protocol: OtlpProtocol;
  /** Redacted request and response bodies on spans (`--otlp-bodies`). */
  bodies: boolean;
  /** At most this many spans wait for the exporter; more are dropped and counted (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  /**
   * How long the exporter tries one batch, retries included (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by
   * default), never longer than the processor waits for it: a batch given up on is never sent late.
   */
  exporterTimeoutMillis: number;
}

export type OtlpConfigResult = { ok: true; config: OtlpConfig | undefined } | { ok: false; message: string };

type Env = Record<string, string | undefined>;

const TRACES_PATH = 'v1/traces';

/** The defaults of the OpenTelemetry specification's batch span processor. */
const BSP_DEFAULTS = { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000 };
const EXPORTER_TIMEOUT = 10_000;

export function resolveOtlpConfig(flags: { otlp?: string; otlpBodies?: boolean }, env: Env): OtlpConfigResult {
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  const endpoint = flags.otlp !== undefined ? fromFlag(flags.otlp) : disabled ? undefined : fromEnv(env);
  if (endpoint === undefined) {
    return flags.otlpBodies ? { ok: false, message: '--otlp-bodies needs --otlp URL (or OTEL_EXPORTER_OTLP_ENDPOINT)' } : { ok: true, config: undefined };
  }
  if (typeof endpoint === 'string') return { ok: false, message: endpoint };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    return { ok: false, message: `OTLP protocol "${protocol}" is not supported: mcpscope sends OTLP over HTTP (http/protobuf or http/json); point it at the collector's HTTP port (usually 4318)` };
  }
  const batch = { ...BSP_DEFAULTS };
  for (const [name, key] of [
    ['OTEL_BSP_MAX_QUEUE_SIZE', 'maxQueueSize'],
    ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 'maxExportBatchSize'],
    ['OTEL_BSP_SCHEDULE_DELAY', 'scheduledDelayMillis'],
    ['OTEL_BSP_EXPORT_TIMEOUT', 'exportTimeoutMillis'],
  ] as const) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < (key === 'scheduledDelayMillis' ? 0 : 1)) return { ok: false, message: `${name} must be a whole number (got "${raw}")` };
    batch[key] = n;
  }
  batch.maxExportBatchSize = Math.min(batch.maxExportBatchSize, batch.maxQueueSize);
  const timeoutText = (env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT)?.trim();
  const timeout = timeoutText ? Number(timeoutText) : EXPORTER_TIMEOUT;
  if (!Number.isInteger(timeout) || timeout < 1) return { ok: false, message: `OTEL_EXPORTER_OTLP_TIMEOUT must be a whole number of milliseconds (got "${timeoutText}")` };
  const exporterTimeoutMillis = Math.min(timeout, batch.exportTimeoutMillis);
  return { ok: true, config: { ...endpoint, protocol, bodies: flags.otlpBodies ?? false, ...batch, exporterTimeoutMillis } };
}

function fromFlag(value: string): { url: string; from: string } | string {
  const url = tracesUrl(value, true);
  return url ? { url, from: '--otlp' } : `--otlp must be an http:// or https:// URL such as http://localhost:4318 (got "${value}")`;
}

function fromEnv(env: Env): { url: string; from: string } | string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return tracesUrl(specific, false) ? { url: new URL(specific).href, from: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' } : `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not an http(s) URL: "${specific}"`;
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!general) return undefined;
  if (!tracesUrl(general, false)) return `OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: "${general}"`;
  // The general endpoint is a base: the signal's path is always appended (OTLP exporter spec).
  return { url: (general.endsWith('/') ? general : general + '/') + TRACES_PATH, from: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
}

/** The URL as given, or with `/v1/traces` when it is a bare origin and `appendToBare`; undefined when not http(s). */
function tracesUrl(value: string, appendToBare: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (appendToBare && (url.pathname === '/' || url.pathname === '') && url.search === '') url.pathname = `/${TRACES_PATH}`;
  return url.href;
}
