/**
 * The Readiness view: is the app under test ready for ChatGPT, Claude, Claude Code, Cursor and
 * VS Code? The audit (`GET /api/audit`) over the running capture, asked again as traffic arrives:
 * a card per host (ready, or what breaks there), then every check with its verdict, evidence,
 * fix and source, filtered by host and verdict.
 */
import { useMemo } from 'react';
import type { ApiClient } from '../api/client.js';
import { CheckTable } from './CheckTable.js';
import { HostCards } from './HostCards.js';
import { checkRows, HOST_LABEL, verdictCounts } from './readiness-model.js';
import { useReadinessFilters } from './readiness-store.js';
import { useAudit } from './use-audit.js';
import { VerdictFilterBar } from './VerdictFilter.js';
import './readiness.css';

export function ReadinessView({ api }: { api: ApiClient }) {
  const { report, error } = useAudit(api);
  const host = useReadinessFilters((s) => s.host);
  const verdict = useReadinessFilters((s) => s.verdict);
  const { chooseHost, chooseVerdict } = useReadinessFilters.getState();
  const rows = useMemo(() => (report ? checkRows(report.checks, host, verdict) : []), [report, host, verdict]);
  const counts = useMemo(() => (report ? verdictCounts(report.checks, host) : undefined), [report, host]);

  return (
    <div className="readiness" data-testid="readiness">
      <header className="readiness-head">
        <h2>Is my app ready?</h2>
        <span className="muted">The readiness audit over this capture, updated as traffic arrives. A check says not seen until the traffic that shows it has passed through the tap.</span>
      </header>
      {error && (
        <p className="error-text hint" data-testid="readiness-error">
          Could not run the audit: {error}. It is asked again when new traffic arrives, or run mcpscope audit from the command line.
        </p>
      )}
      {!report ? (
        !error && <p className="muted hint">Running the audit…</p>
      ) : (
        <>
          <HostCards hosts={report.hosts} checks={report.checks} chosen={host} onChoose={chooseHost} />
          <div className="readiness-filters">
            <VerdictFilterBar chosen={verdict} counts={counts!} onChoose={chooseVerdict} />
            <label className="muted">
              host{' '}
              <select value={host ?? ''} data-testid="host-filter" onChange={(e) => chooseHost(report.hosts.find((h) => h.host === e.target.value)?.host)}>
                <option value="">every host</option>
                {report.hosts.map((h) => (
                  <option key={h.host} value={h.host}>
                    {HOST_LABEL[h.host] ?? h.name}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted">
              {rows.length} of {report.checks.length} checks
            </span>
          </div>
          <CheckTable rows={rows} />
        </>
      )}
    </div>
  );
}
