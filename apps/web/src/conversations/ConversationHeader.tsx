/**
 * Above the timeline while a conversation is chosen: who the host is, when it started, what
 * joined its sessions (a guess says so; a credential says what was kept of it), the revision the
 * sides agreed, the churn, the hints the host sent, and the era lane. The timeline below shows
 * every exchange of the conversation, with a thin line where a new session begins.
 */
import { conversationVerdict, type ConversationSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { EvidenceButton } from '../export/index.js';
import { useReadOnly } from '../store/read-only.js';
import { useConversation } from '../store/use-conversation.js';
import { useUi } from '../store/ui-store.js';
import { chosenConversation, churnLine, CREDENTIAL_NOTE, errorCount, evidenceLabel, exchangeCount, weakestEvidence, withConversation } from '../ui/conversation-facts.js';
import { VerdictCard } from '../ui/VerdictCard.js';
import { EraLane } from './EraLane.js';
import './conversations.css';

const time = (ts: number) => new Date(ts).toLocaleTimeString();

function Header({ api, c }: { api: ApiClient; c: ConversationSummary }) {
  const readOnly = useReadOnly((s) => s.file !== undefined);
  const guess = weakestEvidence(c) === 'client-time';
  const hints = Object.entries(c.hints);
  const verdict = conversationVerdict(c);
  return (
    <section className="conv-header" data-testid="conversation-header" data-key={c.key}>
      {verdict && <VerdictCard verdict={verdict} />}
      <div className="conv-header-line">
        <strong>{c.host}</strong>
        <span className="mono muted">{c.key}</span>
        <span className="muted">started {time(c.firstTs)}</span>
        {c.era.agreed && <span className="rev" data-testid="conversation-revision">{c.era.agreed}</span>}
        <span className={`conv-evidence${guess ? ' guess' : ''}`} data-testid="conversation-evidence" title={c.credential ? CREDENTIAL_NOTE : undefined}>
          {evidenceLabel(c)}
        </span>
        <span className="spacer" />
        <span className="muted">
          {exchangeCount(c)} exchanges · {errorCount(c)} failed
        </span>
        <EvidenceButton api={api} target={{ conversation: c.key }} {...(readOnly ? { noReplay: 'No live server: this dashboard shows a file.' } : {})} />
        <button type="button" className="small" onClick={() => useUi.getState().setFilter(withConversation(useUi.getState().filter, undefined))}>
          All conversations
        </button>
      </div>
      <div className="conv-header-line muted" data-testid="conversation-churn">
        {churnLine(c)}
        {c.churn.staleAnswer && <span title="What the server answered the latest call on a session it did not know"> — {c.churn.staleAnswer}</span>}
      </div>
      {c.credential && <p className="muted conv-note" data-testid="credential-note">{CREDENTIAL_NOTE}</p>}
      {c.hostId && (
        <div className="conv-header-line muted">
          host conversation id <code title="_meta[&quot;openai/session&quot;]">{c.hostId}</code>
        </div>
      )}
      {hints.length > 0 && (
        <details className="conv-hints">
          <summary>{hints.length} hint{hints.length === 1 ? '' : 's'} the host sent in request _meta</summary>
          <dl>
            {hints.map(([k, v]) => (
              <div key={k}>
                <dt className="mono">{k}</dt>
                <dd className="mono">{v}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      <EraLane lane={c.era} />
    </section>
  );
}

export function ConversationHeader({ api }: { api: ApiClient }) {
  const key = useUi((s) => chosenConversation(s.filter));
  const conversation = useConversation(key);
  if (!key) return null;
  if (conversation === undefined) return <section className="conv-header muted" data-testid="conversation-header">Reading conversation {key}…</section>;
  if (conversation === null) return <section className="conv-header muted" data-testid="conversation-header">No conversation {key} in this capture.</section>;
  return <Header api={api} c={conversation} />;
}
