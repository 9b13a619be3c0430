/**
 * The live OTLP export in the top bar (only when mcpscope runs with `--otlp`): where spans go and
 * how many were exported, and, when the backend is down or slow, how many were dropped or failed
 * (the tap never waits for it, so those spans are lost: the count is how the user knows).
 * Polled: the numbers change with every batch, and one request every few seconds is nothing.
 */
import type { ApiClient } from '../api/client.js';
import { usePolled } from './use-polled.js';

export function OtlpStatus({ api }: { api: ApiClient }) {
  // An mcpscope without --otlp never starts exporting: stop asking.
  const status = usePolled(api, (a) => a.otlp(), (s) => !s.enabled);
  if (!status?.enabled) return null;
  const lost = (status.dropped ?? 0) + (status.failed ?? 0);
  const where = status.endpoint ? new URL(status.endpoint).host : '';
  const title = [
    `OTLP export to ${status.endpoint} (${status.protocol}${status.bodies ? ', redacted bodies' : ''})`,
    `${status.exported} exported, ${status.waiting} waiting, ${status.dropped} dropped (queue of ${status.maxQueueSize} full), ${status.failed} failed`,
    status.lastError ? `Last error: ${status.lastError.message} (${new Date(status.lastError.at).toLocaleTimeString()})` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <span className={`otlp-status${lost > 0 ? ' lost' : ''}`} data-testid="otlp-status" title={title}>
      OTLP → {where}: {status.exported} sent
      {status.dropped ? <> · <b data-testid="otlp-dropped">{status.dropped} dropped</b></> : null}
      {status.failed ? <> · <b data-testid="otlp-failed">{status.failed} failed</b></> : null}
    </span>
  );
}
