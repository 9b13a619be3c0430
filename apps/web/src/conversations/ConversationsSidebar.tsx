/**
 * The sidebar: conversations, the most recently started first — host, start time, calls, errors
 * and churn — each expandable into its sessions (with their agreed revision). Choosing one puts
 * `conversation:KEY` in the filter, so the timeline shows all its sessions as one; choosing a
 * session narrows to it as before. Sessions no conversation holds (a capture from before them)
 * are listed on their own. A capture whose sessions are read by windows (store/session-windows.ts)
 * lists each conversation's sessions from the server's window over them, counted by the server.
 * Past CONVERSATIONS_SHOWN conversations (a host in production opens thousands a day) the newest
 * are drawn, and the chosen one; the filter's `conversation:` reaches the rest. A capture whose
 * conversations are read by windows (store/conversation-windows.ts) draws one page of the server's
 * list, paged older and newer, and the chosen one (use-sidebar-conversations.ts); the sessions of
 * its one-session conversations are read together, one read for what is drawn (store/lone-sessions.ts).
 */
import { useEffect, useState } from 'react';
import { isSessionlessKey, type ConversationSummary, type SessionSummary } from '@mcpscope/protocol';
import { SessionList, WindowedSessionList } from '../sessions/SessionList.js';
import { useLive } from '../store/live-store.js';
import { useSessionsWindow } from '../store/session-windows.js';
import { isLone, loneSessions, useLoneSessions } from '../store/lone-sessions.js';
import { useExchangeTotal } from '../store/exchange-total.js';
import { useUi } from '../store/ui-store.js';
import { chosenConversation, churns, CREDENTIAL_NOTE, errorCount, evidenceLabel, sessionsByConversation, weakestEvidence, withConversation } from '../ui/conversation-facts.js';
import { useSidebarConversations } from './use-sidebar-conversations.js';
import { ConversationPager } from './ConversationPager.js';
import './conversations.css';

const time = (ts: number) => new Date(ts).toLocaleTimeString();

/** A conversation, with its sessions held (`sessions`) or read by windows (undefined). */
function ConversationItem({ c, sessions, active, chosenSession }: { c: ConversationSummary; sessions: SessionSummary[] | undefined; active: boolean; chosenSession: string | undefined }) {
  const count = sessions ? sessions.length : c.churn.sessions;
  // A conversation of one session shows it at once; a churned one opens on demand.
  const [open, setOpen] = useState(count <= 1);
  const errors = errorCount(c);
  const guess = weakestEvidence(c) === 'client-time';
  return (
    <li className="conv" data-testid="conversation-item" data-key={c.key} data-sessions={c.churn.sessions}>
      <div className={`conv-row${active ? ' active' : ''}`}>
        <button
          type="button"
          className="conv-toggle"
          aria-expanded={open}
          aria-label={open ? 'Hide its sessions' : 'Show its sessions'}
          data-testid="conversation-toggle"
          disabled={count === 0}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'}
        </button>
        <button
          type="button"
          className="conv-main"
          aria-pressed={active}
          data-testid="conversation-choose"
          onClick={() => {
            const ui = useUi.getState();
            ui.setSession(undefined);
            ui.setFilter(withConversation(ui.filter, active ? undefined : c.key));
          }}
        >
          <span className="session-client">
            {c.host} <span className="mono muted conv-key">{c.key}</span>
          </span>
          <span className="session-line muted">
            {time(c.firstTs)} · {c.churn.toolsCall} call{c.churn.toolsCall === 1 ? '' : 's'}
            {errors > 0 && <span className="tone-error"> · {errors} failed</span>}
            {c.era.agreed && <span className="rev">{c.era.agreed}</span>}
          </span>
          <span className={`session-line conv-evidence${guess ? ' guess' : ''}`} title={c.credential ? CREDENTIAL_NOTE : undefined}>
            {evidenceLabel(c)}
          </span>
          {churns(c) && (
            <span className="session-line conv-churn" data-testid="conversation-churn-badge" title="The host opened a new session (with its own initialize) for these calls">
              churn: {c.churn.sessions} sessions, {c.churn.initialize} initialize, {c.churn.toolsList} tools/list
              {c.churn.unusedSessions > 0 ? `, ${c.churn.unusedSessions} unused` : ''}
              {c.churn.staleSessionCalls > 0 ? `, ${c.churn.staleSessionCalls} stale` : ''}
            </span>
          )}
        </button>
      </div>
      {open && count > 0 && (sessions ? <SessionList sessions={sessions} chosen={chosenSession} /> : <ReadSessions c={c} count={count} chosen={chosenSession} />)}
    </li>
  );
}

/**
 * A conversation's sessions in a capture whose sessions are read by windows: a one-session
 * conversation's, read with the others drawn (store/lone-sessions.ts) and drawn empty until then;
 * any other's, and one that read did not find, by windows of its own.
 */
function ReadSessions({ c, count, chosen }: { c: ConversationSummary; count: number; chosen: string | undefined }) {
  const lone = useLoneSessions((s) => s.sessions.get(c.key));
  const missing = useLoneSessions((s) => s.missing.has(c.key));
  if (lone) return <SessionList sessions={[lone]} chosen={chosen} />;
  if (isLone(c) && !missing && loneSessions()) return <ul className="conv-sessions" aria-busy="true" data-testid="lone-session-pending" />;
  return <WindowedSessionList list={{ conversation: c.key, oldestFirst: true }} count={count} chosen={chosen} />;
}

export function ConversationsSidebar() {
  const sessions = useLive((s) => s.sessions);
  const windowed = useSessionsWindow((s) => s.windowed);
  const sessionTotal = useSessionsWindow((s) => (s.windowed ? s.total : undefined)) ?? sessions.size;
  const total = useExchangeTotal();
  const chosenSession = useUi((s) => s.session);
  const chosen = useUi((s) => chosenConversation(s.filter));
  const grouped = windowed ? new Map<string, SessionSummary[]>() : sessionsByConversation(sessions.values());
  const { shown, more, total: conversationTotal, page } = useSidebarConversations(chosen);
  // The tap's made-up sessions of session-less traffic hold exchanges of several conversations:
  // listed on their own only when there are no conversations at all (a capture from before them).
  const loose = (grouped.get('') ?? []).filter((s) => conversationTotal === 0 || !isSessionlessKey(s.sessionKey));
  // Read by windows: the one-session conversations drawn read their sessions together, in one read.
  const loneKeys = windowed ? shown.filter(isLone).map((c) => c.key) : [];
  const loneList = loneKeys.join(',');
  useEffect(() => loneSessions()?.show(loneList === '' ? [] : loneList.split(',')), [loneList]);
  return (
    <nav className="sidebar" aria-label="Conversations" data-testid="sessions">
      <h2>Conversations</h2>
      <ul>
        <li>
          <button
            type="button"
            className={`session${chosen || chosenSession ? '' : ' active'}`}
            aria-pressed={!chosen && !chosenSession}
            onClick={() => {
              const ui = useUi.getState();
              ui.setSession(undefined);
              ui.setFilter(withConversation(ui.filter, undefined));
            }}
          >
            <span className="session-client">All conversations</span>
            <span className="session-line muted">
              <span data-testid="conversation-total">{conversationTotal}</span> conversation{conversationTotal === 1 ? '' : 's'} · {sessionTotal} session{sessionTotal === 1 ? '' : 's'} · {total} exchange{total === 1 ? '' : 's'}
            </span>
          </button>
        </li>
        {shown.map((c) => (
          <ConversationItem key={c.key} c={c} sessions={windowed ? undefined : (grouped.get(c.key) ?? [])} active={c.key === chosen} chosenSession={chosenSession} />
        ))}
        {page && <ConversationPager offset={page.offset} rows={page.rows} total={conversationTotal} />}
        {more > 0 && (
          <li className="muted hint" data-testid="conversations-not-shown">
            {more} older conversation{more === 1 ? '' : 's'} not drawn here: type <code>conversation:</code> in the filter to reach one.
          </li>
        )}
        {windowed && (
          <WindowedSessionList
            list={{ conversation: '', oldestFirst: true }}
            count={0}
            chosen={chosenSession}
            frame={(box) => (
              <li className="conv">
                <span className="muted conv-loose">Sessions in no conversation</span>
                {box}
              </li>
            )}
          />
        )}
        {loose.length > 0 && (
          <li className="conv">
            <span className="muted conv-loose">Sessions in no conversation</span>
            <SessionList sessions={loose} chosen={chosenSession} />
          </li>
        )}
      </ul>
    </nav>
  );
}
