/**
 * The Rules panel: write a rule (checked as you type), list the rule set with a toggle, a remove
 * button and what each rule did, and the frames pause rules hold now. A reopened capture shows its
 * rules read-only.
 */
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { useCloseOnEscape } from '../replay/use-close-on-escape.js';
import { HeldFrames, type HeldControls } from './HeldFrames.js';
import { InterceptApi } from './intercept-api.js';
import { ruleRows } from './intercept-model.js';
import { useIntercept } from './intercept-store.js';
import { RuleInput } from './RuleInput.js';
import '../replay/replay.css';
import './intercept.css';

export function RulesPanel({ client, onClose }: { client: ApiClient; onClose(): void }) {
  const [api] = useState(() => new InterceptApi(client));
  const state = useIntercept((s) => s.state);
  const refresh = useIntercept((s) => s.refresh);
  const [error, setError] = useState<string>();
  useCloseOnEscape(onClose);
  const live = state?.live ?? true;
  const run = async (action: () => Promise<unknown>): Promise<string | undefined> => {
    try {
      await action();
      setError(undefined);
      return undefined;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      setError(message);
      return message;
    } finally {
      refresh();
    }
  };
  const controls: HeldControls = {
    release: async (id, text) => void (await run(() => api.release(id, text))),
    drop: async (id) => void (await run(() => api.drop(id))),
  };
  const rows = ruleRows(state?.rules ?? [], state?.interventions ?? []);
  return (
    <div className="replay-panel intercept-panel" role="dialog" aria-label="Rules" data-testid="intercept-panel">
      <header className="replay-head">
        <strong>Rules</strong>
        <span className="replay-what">pause, delay, fail or change traffic on purpose — everything a rule does is marked as injected</span>
        <button type="button" className="ghost replay-close" onClick={onClose} aria-label="Close rules" data-testid="intercept-close">✕</button>
      </header>
      {!live && <div className="replay-warning">A reopened capture: its rules are shown, not run.</div>}
      <RuleInput disabled={!live} onAdd={(text) => run(() => api.addRule(text))} />
      {error && <div className="replay-error" role="alert">{error}</div>}
      <HeldFrames client={client} held={state?.held ?? []} controls={controls} />
      <table className="intercept-rules">
        <tbody>
          {rows.map(({ rule, hits, did }) => (
            <tr key={rule.id} data-testid="intercept-rule" data-rule-id={rule.id} data-enabled={rule.enabled}>
              <td>
                <input type="checkbox" aria-label="Rule on" data-testid="intercept-rule-toggle" checked={rule.enabled} disabled={!live} onChange={(e) => void run(() => api.setEnabled(rule.id, e.target.checked))} />
              </td>
              <td className="mono intercept-rule-text">{rule.text}</td>
              <td className="muted" data-testid="intercept-rule-hits" title={did || 'Has not acted yet'}>
                {hits} hit{hits === 1 ? '' : 's'}
                {did ? ` · ${did}` : ''}
              </td>
              <td>
                <button type="button" className="small" data-testid="intercept-rule-remove" disabled={!live} onClick={() => void run(() => api.remove(rule.id))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td className="muted">No rules. Write one above, e.g. <code>tool:search =&gt; delay 5s</code>, <code>method:tools/call =&gt; error -32602 once</code>.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
