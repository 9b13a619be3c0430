/** The verdict filter: every check, or only those that fail, warn, pass or were not seen (with counts). */
import { VERDICT_LABEL, VERDICTS, type Verdict, type VerdictFilter } from './readiness-model.js';

export function VerdictFilterBar({ chosen, counts, onChoose }: { chosen: VerdictFilter; counts: Record<Verdict, number>; onChoose(verdict: VerdictFilter): void }) {
  const total = VERDICTS.reduce((n, v) => n + counts[v], 0);
  return (
    <span className="segmented" role="group" aria-label="Verdict">
      <button type="button" className={chosen === 'all' ? 'on' : ''} aria-pressed={chosen === 'all'} data-testid="verdict-filter" data-verdict="all" onClick={() => onChoose('all')}>
        all {total}
      </button>
      {VERDICTS.map((v) => (
        <button key={v} type="button" className={chosen === v ? 'on' : ''} aria-pressed={chosen === v} data-testid="verdict-filter" data-verdict={v} onClick={() => onChoose(v)}>
          {VERDICT_LABEL[v]} {counts[v]}
        </button>
      ))}
    </span>
  );
}
