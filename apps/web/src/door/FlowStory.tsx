/**
 * One client's connection flow, read top to bottom like a story: the steps in the order they
 * happened, under their phase (probe, discovery, registration, authorization, token, MCP), each
 * with its colour as icon and word, the reason in one sentence, the spec it rests on, and links to
 * the HTTP requests (the detail pane) and the MCP exchanges (the timeline) it is about.
 */
import { FLOW_PHASES, PHASE_LABELS, type ConnectionFlow, type FlowPhase, type FlowStep } from '@mcpscope/protocol';
import { useUi } from '../store/ui-store.js';
import { useDoor } from '../store/door-store.js';
import { VerdictBadge } from './ClientList.js';
import { COLOUR_LOOKS, clockTime } from './door-looks.js';

const JOINED: Record<string, string> = {
  'mcp-session': 'its MCP session',
  conversation: 'its conversation',
  'identity-and-time': 'user agent, address and time (a guess)',
};

/** Consecutive steps of one phase, as one section. */
function sections(steps: FlowStep[]): { phase: FlowPhase; steps: FlowStep[] }[] {
  const out: { phase: FlowPhase; steps: FlowStep[] }[] = [];
  for (const step of steps) {
    const last = out[out.length - 1];
    if (last && last.phase === step.phase) last.steps.push(step);
    else out.push({ phase: step.phase, steps: [step] });
  }
  return out;
}

function openExchange(id: string): void {
  const ui = useUi.getState();
  ui.setMode('exchanges');
  ui.select(id, true);
}

/** The timeline of the client's conversation: all its sessions, as the sidebar's conversation shows them. */
function openConversation(key: string): void {
  const ui = useUi.getState();
  ui.setMode('exchanges');
  ui.setSession(undefined);
  ui.setFilter(`conversation:${key}`);
}

function Step({ step, opened }: { step: FlowStep; opened: number | undefined }) {
  const look = COLOUR_LOOKS[step.colour];
  return (
    <li className={`step tone-${look.tone}`} data-testid="flow-step" data-check={step.check} data-colour={step.colour} data-phase={step.phase}>
      <span className="step-dot" aria-hidden="true">{look.icon}</span>
      <div className="step-body">
        <div className="step-title">
          <span className="sr-only">{look.word}: </span>
          <code>{step.title}</code>
          {step.probe && <span className="badge tone-muted">probe</span>}
          {step.spec && <span className="step-spec muted">{step.spec}</span>}
        </div>
        <p className="step-reason" data-testid="step-reason">{step.reason}</p>
        {(step.records.length > 0 || (step.exchanges?.length ?? 0) > 0) && (
          <div className="step-links">
            {step.records.map((id) => (
              <button key={id} type="button" className={`link${opened === id ? ' on' : ''}`} data-testid="step-record" onClick={() => useDoor.getState().openRecord(id)}>
                request #{id}
              </button>
            ))}
            {step.exchanges?.slice(0, 8).map((id) => (
              <button key={id} type="button" className="link" data-testid="step-exchange" onClick={() => openExchange(id)}>
                exchange {id} ↗
              </button>
            ))}
            {(step.exchanges?.length ?? 0) > 8 && <span className="muted">and {step.exchanges!.length - 8} more</span>}
          </div>
        )}
      </div>
    </li>
  );
}

export function FlowStory({ flow }: { flow: ConnectionFlow }) {
  const opened = useDoor((s) => s.record);
  const seen = new Set(flow.steps.map((s) => s.phase));
  return (
    <section className="flow" data-testid="flow" data-client={flow.clientKey} aria-label={`Connection flow of ${flow.label}`}>
      <header className="flow-head">
        <h2>
          {flow.label} <VerdictBadge flow={flow} />
        </h2>
        <p className="flow-verdict" data-testid="flow-verdict">{flow.verdict.sentence}</p>
        <p className="muted">
          {flow.userAgent && <span className="mono">{flow.userAgent}</span>} from {flow.address} · {clockTime(flow.firstTs)}–{clockTime(flow.lastTs)} · {flow.records} request
          {flow.records === 1 ? '' : 's'}
          {flow.probes > 0 && `, ${flow.probes} of them probes`}
          {flow.sessions > 1 && ` in ${flow.sessions} MCP sessions`} · grouped by {flow.joinedBy.map((j) => JOINED[j] ?? j).join(' and ')}
          {flow.conversationKey !== undefined && (
            <>
              {' · '}
              <button type="button" className="link" data-testid="flow-conversation" onClick={() => openConversation(flow.conversationKey!)}>
                conversation {flow.conversationKey} in the timeline ↗
              </button>
            </>
          )}
        </p>
        <p className="phases muted" aria-label="Phases seen">
          {FLOW_PHASES.map((p) => (
            <span key={p} className={seen.has(p) ? 'phase-on' : 'phase-off'}>
              {PHASE_LABELS[p]}
            </span>
          ))}
        </p>
      </header>
      <ol className="story">
        {sections(flow.steps).map((section, i) => (
          <li key={i} className="story-phase" data-phase={section.phase}>
            <h3>{PHASE_LABELS[section.phase]}</h3>
            <ol>
              {section.steps.map((step, k) => (
                <Step key={k} step={step} opened={opened} />
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </section>
  );
}
