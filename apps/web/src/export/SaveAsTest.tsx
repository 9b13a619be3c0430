/**
 * "Save as test": the chosen calls (the timeline's filter, the selected exchange's conversation, or
 * the selected exchange) as a golden capture for `mcpscope verify`, with the command and a GitHub
 * Actions job ready to paste, and the paths this capture showed to be volatile already listed as
 * `--ignore` (each with the two answers that differed there).
 */
import { useEffect, useState } from 'react';
import type { RegressionTestPlan } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { CopyButton } from '../ui/CopyButton.js';
import { saveFile } from '../ui/save-file.js';
import { downloadGolden, fetchRegressionPlan, type RegressionScope } from './export-api.js';
import './export-menu.css';

type Choice = 'filter' | 'conversation' | 'exchange';
type PlanState = { status: 'loading' } | { status: 'ready'; plan: RegressionTestPlan } | { status: 'error'; message: string };

export function SaveAsTestButton({ api, filter }: { api: ApiClient; filter: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="export-menu save-test-menu">
      <button type="button" className="small" aria-expanded={open} data-testid="save-test-button" title="Save calls as a golden capture and a CI job that runs mcpscope verify on it" onClick={() => setOpen(!open)}>
        Save as test
      </button>
      {open && <SaveAsTestPanel api={api} filter={filter} onClose={() => setOpen(false)} />}
    </div>
  );
}

function SaveAsTestPanel({ api, filter, onClose }: { api: ApiClient; filter: string; onClose(): void }) {
  const selected = useUi((s) => s.selected);
  const conversation = useLive((s) => {
    const ex = selected ? s.index.get(selected) : undefined;
    return ex ? (ex.conversation ?? s.sessions.get(ex.sessionKey)?.conversationKey) : undefined;
  });
  const available: Record<Choice, RegressionScope | undefined> = {
    filter: filter.trim() ? { filter } : undefined,
    conversation: conversation ? { conversation } : undefined,
    exchange: selected ? { exchange: selected } : undefined,
  };
  const [choice, setChoice] = useState<Choice>(available.filter ? 'filter' : available.conversation ? 'conversation' : 'exchange');
  const scope = available[choice];
  const key = JSON.stringify(scope ?? null);
  const [plan, setPlan] = useState<PlanState>({ status: 'loading' });
  const [notice, setNotice] = useState<string>();
  useEffect(() => {
    const chosen = JSON.parse(key) as RegressionScope | null;
    if (!chosen) return setPlan({ status: 'error', message: 'Set a filter or select an exchange first: that is what the test re-runs.' });
    const abort = new AbortController();
    setPlan({ status: 'loading' });
    fetchRegressionPlan(api, chosen, abort.signal).then(
      (p) => setPlan({ status: 'ready', plan: p }),
      (err: Error) => abort.signal.aborted || setPlan({ status: 'error', message: err.message }),
    );
    return () => abort.abort();
  }, [api, key]);

  const ready = plan.status === 'ready' ? plan.plan : undefined;
  return (
    <div className="export-panel save-test-panel" role="dialog" aria-label="Save as regression test" data-testid="save-test-panel">
      <div className="export-panel-head">
        <strong>Save as regression test</strong>
        <button type="button" className="link" onClick={onClose} aria-label="Close">×</button>
      </div>
      <fieldset>
        <legend>Which calls</legend>
        {(['filter', 'conversation', 'exchange'] as const).map((c) => (
          <label key={c}>
            <input type="radio" name="save-test-scope" data-testid={`save-test-scope-${c}`} checked={choice === c} disabled={!available[c]} onChange={() => setChoice(c)} />{' '}
            {c === 'filter' ? <>The current filter{filter.trim() ? <code>{filter}</code> : ' (none set)'}</> : c === 'conversation' ? <>The selected call’s conversation{conversation ? <code>{conversation}</code> : ' (none)'}</> : <>The selected exchange{selected ? <code>#{selected}</code> : ' (none)'}</>}
          </label>
        ))}
      </fieldset>
      <div className="export-preview" data-testid="save-test-plan" aria-live="polite">
        {plan.status === 'loading' && <span className="hint">Reading the calls…</span>}
        {plan.status === 'error' && <span className="error">{plan.message}</span>}
        {ready && (
          <>
            <div data-testid="save-test-summary">
              {ready.calls} call{ready.calls === 1 ? '' : 's'} in {ready.sessions} session{ready.sessions === 1 ? '' : 's'} ({ready.scope}), with their handshakes; secrets redacted.
            </div>
            {ready.failedInCapture > 0 && <div className="hint">{ready.failedInCapture} of them failed in the capture: with --expect ok they must succeed now (drop it to require the same outcome).</div>}
            {ready.ignore.length === 0 ? (
              <div className="hint">No volatile path seen beyond verify’s own rules (dates, UUIDs, ids): no --ignore needed.</div>
            ) : (
              <ul data-testid="save-test-ignore">
                {ready.ignore.map((v) => (
                  <li key={v.path}>
                    <code>{v.path}</code> <span className="hint">varied between {v.evidence}</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      {ready && (
        <>
          <fieldset>
            <legend>Command</legend>
            <pre className="save-test-code" data-testid="save-test-command">{ready.command}</pre>
            <CopyButton text={ready.command} />
          </fieldset>
          <fieldset>
            <legend>GitHub Actions job</legend>
            <pre className="save-test-code" data-testid="save-test-workflow">{ready.workflow}</pre>
            <CopyButton text={ready.workflow} />{' '}
            <button type="button" className="small" onClick={() => saveFile(new Blob([ready.workflow], { type: 'text/yaml' }), 'mcp-regression.yml')}>
              Download mcp-regression.yml
            </button>
          </fieldset>
          <div className="export-actions">
            <button
              type="button"
              className="primary"
              data-testid="save-test-golden"
              onClick={() =>
                downloadGolden(api, scope!, ready.fileName).then(
                  () => setNotice(`Downloaded ${ready.fileName}`),
                  (err: Error) => setNotice(`Could not save: ${err.message}`),
                )
              }
            >
              Download {ready.fileName}
            </button>
            {notice && <span className="hint" data-testid="save-test-notice">{notice}</span>}
          </div>
        </>
      )}
    </div>
  );
}
