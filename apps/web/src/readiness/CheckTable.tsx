/** The checks as a table: check, hosts it affects, verdict, evidence, the fix, the source. */
import { EvidenceCell } from './EvidenceLinks.js';
import { HOST_LABEL, VERDICT_LABEL, VERDICT_TONE, type CheckRow } from './readiness-model.js';
import { SourceLink } from './SourceLink.js';

export function CheckTable({ rows }: { rows: readonly CheckRow[] }) {
  if (rows.length === 0) return <p className="muted hint">No check matches these filters.</p>;
  return (
    <table className="readiness-table" data-testid="readiness-table">
      <thead>
        <tr>
          <th scope="col">Check</th>
          <th scope="col">Hosts</th>
          <th scope="col">Verdict</th>
          <th scope="col">Evidence</th>
          <th scope="col">Fix</th>
          <th scope="col">Source</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.check.id} data-testid="check-row" data-check={row.check.id} data-verdict={row.verdict}>
            <td className="check-name" title={row.check.help}>
              <strong>{row.check.title}</strong>
              <code className="muted">{row.check.id}</code>
            </td>
            <td className="check-hosts">{row.check.hosts.map((h) => HOST_LABEL[h] ?? h).join(', ')}</td>
            <td className="check-verdict">
              <span className={`badge ${VERDICT_TONE[row.verdict]}`} data-testid="check-verdict">
                {VERDICT_LABEL[row.verdict]}
              </span>
            </td>
            <td className="check-evidence">
              <EvidenceCell row={row} />
            </td>
            <td className="check-fix">{row.check.fix}</td>
            <td>
              <SourceLink source={row.check.source} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
