/**
 * Which era each side speaks: the conversation's negotiation as a lane — every recent probe and
 * initialize placed on its time line (a diamond for server/discover, a dot for initialize; red
 * when it failed, ringed when it was a fallback) — and the distinct steps, counted, in words.
 * Clicking a mark opens its exchange.
 */
import type { EraEvent, EraLane as Lane } from '@mcpscope/protocol';
import { useUi } from '../store/ui-store.js';
import { stepText } from '../ui/conversation-facts.js';

function eventTitle(e: EraEvent): string {
  const what = e.kind === 'discover' ? 'server/discover' : 'initialize';
  const answer = e.outcome === 'pending' ? 'waiting' : e.outcome === 'failed' ? (e.error ?? 'failed') : e.kind === 'discover' ? (e.supported ? `supports ${e.supported.join(', ')}` : 'answered') : (e.agreed ?? 'answered');
  const flags = [e.fallback ? 'fell back from a refused probe' : '', e.mismatch ? 'version mismatch' : ''].filter(Boolean).join('; ');
  return `#${e.exchangeId} ${what}${e.requested ? ` asking ${e.requested}` : ''} → ${answer}${flags ? ` (${flags})` : ''}\nsession ${e.sessionKey}`;
}

export function EraLane({ lane }: { lane: Lane }) {
  const events = lane.recent;
  if (events.length === 0 && lane.steps.length === 0) return <p className="muted era-empty">No negotiation seen in this conversation.</p>;
  const t0 = events[0]?.ts ?? 0;
  const span = Math.max(1, (events[events.length - 1]?.ts ?? t0) - t0);
  return (
    <div className="era" data-testid="era-lane">
      <div className="era-strip" role="list" aria-label="Negotiation over time">
        {events.map((e) => (
          <button
            type="button"
            role="listitem"
            key={e.exchangeId}
            data-testid="era-dot"
            data-kind={e.kind}
            data-outcome={e.outcome}
            className={`era-dot era-${e.kind} era-${e.outcome}${e.fallback ? ' era-fallback' : ''}${e.mismatch ? ' era-mismatch' : ''}`}
            style={{ left: `calc(${((e.ts - t0) / span) * 100}% - 5px)` }}
            title={eventTitle(e)}
            onClick={() => useUi.getState().select(e.exchangeId, true)}
          />
        ))}
      </div>
      <ul className="era-steps">
        {lane.steps.map((s) => (
          <li key={`${s.kind}|${s.requested}|${s.answer}|${s.outcome}|${s.fallback}`} data-testid="era-step" data-kind={s.kind} data-outcome={s.outcome} data-count={s.count} className={`era-step era-${s.outcome}`}>
            <span className="era-step-icon" aria-hidden="true">{s.kind === 'discover' ? '◆' : '●'}</span>
            <span className="mono">{stepText(s)}</span>
            {s.fallback && <span className="era-badge">fallback</span>}
            {s.mismatch && <span className="era-badge era-badge-warn">version mismatch</span>}
            <span className="muted">×{s.count}</span>
          </li>
        ))}
      </ul>
      {(lane.probes > 0 || lane.mismatches > 0) && (
        <p className="muted era-sum">
          {lane.probes} probe{lane.probes === 1 ? '' : 's'}, {lane.failedProbes} refused, {lane.fallbacks} fallback{lane.fallbacks === 1 ? '' : 's'} to initialize
          {lane.mismatches > 0 ? `, ${lane.mismatches} version mismatch${lane.mismatches === 1 ? '' : 'es'}` : ''}
        </p>
      )}
    </div>
  );
}
