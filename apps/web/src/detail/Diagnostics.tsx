/** The exchange's diagnostics: severity, code, what is wrong and how to fix it, and where. */
import { diagnosticHelp, type Diagnostic } from '@mcpscope/protocol';

const ICON = { error: '✕', warning: '⚠', info: 'ℹ' } as const;

export function Diagnostics({ diagnostics, count }: { diagnostics: readonly Diagnostic[] | undefined; count: number }) {
  if (!diagnostics) {
    if (count === 0) return null;
    return (
      <section className="diagnostics" data-testid="diagnostics">
        <h4>Diagnostics</h4>
        <p className="muted">{count} finding{count === 1 ? '' : 's'} recorded for this exchange; this proxy does not serve their details.</p>
      </section>
    );
  }
  if (diagnostics.length === 0) return null;
  return (
    <section className="diagnostics" data-testid="diagnostics">
      <h4>Diagnostics ({diagnostics.length})</h4>
      <ul>
        {diagnostics.map((d, i) => (
          <li key={`${d.frameSeq}-${d.code}-${i}`} className={`diag sev-${d.severity}`} data-code={d.code}>
            <span className="diag-icon" aria-hidden="true">{ICON[d.severity]}</span>
            <span className="diag-sev">{d.severity}</span>
            <code className="diag-code">{d.code}</code>
            <span className="diag-msg">
              {d.message}
              {diagnosticHelp(d.code) && (
                <details className="diag-help" data-testid="diagnostic-help">
                  <summary>why, and the rules</summary>
                  <p>{diagnosticHelp(d.code)}</p>
                </details>
              )}
            </span>
            <a className="diag-where" href={`#frame-${d.frameSeq}`}>
              frame #{d.frameSeq}
              {d.path ? ` at ${d.path}` : ''}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
