/**
 * In the detail pane, what intercept rules did to the open exchange: per intervention the rule,
 * the original beside what was delivered in its place, and the reaction card (what the client did
 * next in that conversation).
 */
import type { ExchangeSummary, FrameView, Intervention } from '@mcpscope/protocol';
import { interventionsOf, reactionLines } from './intercept-model.js';
import { prettyFrame } from '../ui/pretty-frame.js';
import { useIntercept } from './intercept-store.js';
import './intercept.css';

function Side({ label, text, testId }: { label: string; text: string | undefined; testId: string }) {
  return (
    <div className="intercept-side">
      <div className="muted">{label}</div>
      <pre className="mono" data-testid={testId}>{text === undefined ? '(none)' : prettyFrame(text)}</pre>
    </div>
  );
}

function One({ intervention, frames }: { intervention: Intervention; frames: readonly FrameView[] }) {
  const delivered = intervention.deliveredSeq >= 0 ? frames.find((f) => f.seq === intervention.deliveredSeq)?.raw : undefined;
  return (
    <section className="intercept-card" data-testid="intervention" data-action={intervention.action}>
      <div className="intercept-card-head">
        <strong>⚡ {intervention.action}</strong> <code className="mono">{intervention.ruleText}</code>
        {intervention.note && <span className="muted"> — {intervention.note}</span>}
      </div>
      {(intervention.original !== undefined || delivered !== undefined) && (
        <div className="intercept-compare">
          <Side label="original" text={intervention.original} testId="intervention-original" />
          <Side label={intervention.deliveredSeq >= 0 ? `delivered (#${intervention.deliveredSeq}, injected)` : 'delivered'} text={delivered} testId="intervention-delivered" />
        </div>
      )}
      <div className="intercept-reaction" data-testid="reaction-card" data-final={intervention.reaction?.final ?? false}>
        <span className="muted">the client then: </span>
        {reactionLines(intervention.reaction).join('; ')}
      </div>
    </section>
  );
}

export function InterventionCard({ ex, frames }: { ex: ExchangeSummary; frames: readonly FrameView[] }) {
  const all = useIntercept((s) => s.state?.interventions);
  const mine = all ? interventionsOf(ex, all) : [];
  if (mine.length === 0) return null;
  return (
    <div className="intercept-cards" data-testid="interventions">
      <h4>Intercepted</h4>
      {mine.map((i) => <One key={i.id} intervention={i} frames={frames} />)}
    </div>
  );
}
