/**
 * Drive a server from the dashboard: pick where messages go (mcpscope's own session, which says
 * it can answer sampling, elicitation and roots, or a captured session), list what the server
 * offers now, fill a tool's, prompt's or template's form and send it. Arguments that break the
 * schema are shown first and sent only on "Send anyway". The server's own questions wait on top.
 * Everything sent is captured, selected in the timeline, and marked as sent from the dashboard.
 */
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { responseRaw } from '../replay/exchange-text.js';
import { statusLabel } from '../replay/status-label.js';
import { useCloseOnEscape } from '../replay/use-close-on-escape.js';
import { useSessionChoices } from '../store/session-choices.js';
import { prettyFrame } from '../ui/pretty-frame.js';
import { shortSessionKey } from '../ui/short-key.js';
import { DriveItems, type Tab } from './DriveItems.js';
import { DriveReadOnly } from './DriveReadOnly.js';
import { ServerAsks } from './ServerAsks.js';
import { useDrive, type DriveState } from './use-drive.js';
import '../replay/replay.css';
import './drive.css';

const LISTS: Array<[string, string]> = [['tools/list', 'tools'], ['prompts/list', 'prompts'], ['resources/list', 'resources'], ['resources/templates/list', 'templates']];

function Target({ drive }: { drive: DriveState }) {
  const { sessions, more } = useSessionChoices(drive.target);
  return (
    <div className="replay-toolbar">
      <label>
        Send into{' '}
        <select data-testid="drive-target" value={drive.target} onChange={(e) => drive.setTarget(e.target.value)}>
          <option value="">mcpscope's own session (answers sampling, elicitation, roots)</option>
          {sessions.map((s) => <option key={s.sessionKey} value={s.sessionKey}>{`${s.clientLabel ?? 'client'} · ${shortSessionKey(s.sessionKey, 12)}`}</option>)}
          {more > 0 && <option disabled value="" data-testid="sessions-not-offered">{`… ${more} more: choose one in the sidebar to offer it here`}</option>}
        </select>
      </label>
      {!drive.target && (
        <button type="button" className="small" data-testid="drive-own" disabled={drive.busy} onClick={() => void drive.startOwn(drive.sessionKey !== undefined)}>
          {drive.sessionKey ? 'New session' : 'Open session'}
        </button>
      )}
      {drive.sessionKey && <span className="muted mono" title={drive.sessionKey}>{shortSessionKey(drive.sessionKey, 14)}</span>}
      <span className="replay-spacer" />
      List now:
      {LISTS.map(([method, label]) => (
        <button key={method} type="button" className="small" data-testid={`drive-list-${label}`} disabled={drive.busy} onClick={() => void drive.send({ message: { jsonrpc: '2.0', id: 1, method } })}>
          {label}
        </button>
      ))}
    </div>
  );
}

function Outcome({ drive }: { drive: DriveState }) {
  const { outcome, detail } = drive;
  if (!outcome) return null;
  if (outcome.kind === 'refused') {
    return (
      <section className="drive-violations" data-testid="drive-violations" role="alert">
        <strong>Not sent: the arguments break the schema.</strong>
        <ul>{outcome.refusal.violations.map((v) => <li key={v.path}><code>{v.path}</code> {v.message}</li>)}</ul>
        <button type="button" className="danger" data-testid="drive-send-anyway" disabled={drive.busy} onClick={() => drive.refused && void drive.send(drive.refused, true)}>
          Send anyway
        </button>
      </section>
    );
  }
  const exchange = detail?.exchange;
  return (
    <section className="replay-result">
      {outcome.kind === 'failed' && <div className="replay-error" role="alert">{outcome.failure.error.message}</div>}
      {outcome.kind === 'sent' && outcome.value.violations.length > 0 && (
        <div className="replay-warning" data-testid="drive-sent-anyway">Sent anyway, breaking: {outcome.value.violations.map((v) => `${v.path} ${v.message}`).join('; ')}</div>
      )}
      {exchange && (
        <>
          <div className="replay-result-line" data-testid="drive-result" data-status={exchange.status} data-exchange-id={exchange.id}>
            #{exchange.id} <code>{exchange.method}</code> {exchange.target ?? ''} <span className={`status-${exchange.status}`}>{statusLabel(exchange.status)}</span>
          </div>
          <pre className="replay-answer" data-testid="drive-answer">{prettyFrame(responseRaw(detail) ?? '')}</pre>
        </>
      )}
    </section>
  );
}

export function DrivePanel({ api, onClose }: { api: ApiClient; onClose(): void }) {
  const drive = useDrive(api, '');
  const [tab, setTab] = useState<Tab>('tools');
  useCloseOnEscape(onClose);
  const counts = { tools: drive.lists?.tools.items.length ?? 0, prompts: drive.lists?.prompts.items.length ?? 0, resources: (drive.lists?.resources.items.length ?? 0) + (drive.lists?.resourceTemplates.items.length ?? 0) };
  return (
    <div className="replay-panel drive-panel" role="dialog" aria-label="Drive" data-testid="drive-panel">
      <header className="replay-head">
        <strong>Drive</strong>
        <span className="replay-what">call tools, get prompts, read resources — and answer what the server asks</span>
        <button type="button" className="ghost replay-close" onClick={onClose} aria-label="Close drive" data-testid="drive-close">✕</button>
      </header>
      {drive.readOnly !== undefined ? (
        <DriveReadOnly message={drive.readOnly} />
      ) : (
        <>
          <Target drive={drive} />
          {drive.error && <div className="replay-error" role="alert">{drive.error}</div>}
          <ServerAsks api={drive.api} />
          <div className="drive-tabs" role="tablist">
            {(['tools', 'prompts', 'resources'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} data-testid={`drive-tab-${t}`} className={tab === t ? 'active' : ''} onClick={() => setTab(t)}>
                {t} ({counts[t]})
              </button>
            ))}
          </div>
          <DriveItems key={`${drive.sessionKey ?? ''}`} drive={drive} tab={tab} />
          <Outcome drive={drive} />
        </>
      )}
    </div>
  );
}

