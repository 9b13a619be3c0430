/**
 * Import a capture (mcpscope JSONL, or a HAR from mcpscope, Chrome DevTools or mitmproxy). The
 * imported sessions appear in the timeline like live ones, marked `import:<file>:`, read-only.
 * What could not be imported is listed by line or entry.
 */
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import type { ImportReport } from '@mcpscope/protocol';
import { importFile } from './export-api.js';

type State = { status: 'idle' } | { status: 'busy'; name: string } | { status: 'done'; report: ImportReport } | { status: 'error'; message: string };

export function ImportSection({ api }: { api: ApiClient }) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setState({ status: 'busy', name: file.name });
    try {
      setState({ status: 'done', report: await importFile(api, file) });
    } catch (err) {
      setState({ status: 'error', message: (err as Error).message });
    }
  };
  return (
    <fieldset className="import-section">
      <legend>Import</legend>
      <label className="stack">
        A .jsonl or .har file (mcpscope, Chrome DevTools, mitmproxy)
        <input type="file" accept=".jsonl,.ndjson,.har,.json,application/json" data-testid="import-input" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      <div data-testid="import-report" aria-live="polite">
        {state.status === 'busy' && <span className="hint">Importing {state.name}…</span>}
        {state.status === 'error' && <span className="error">{state.message}</span>}
        {state.status === 'done' && (
          <>
            <div>
              Imported {state.report.frames} frames from {state.report.name} into {state.report.sessionKeys.length} read-only session
              {state.report.sessionKeys.length === 1 ? '' : 's'}
              {state.report.requests ? `, with ${state.report.requests} HTTP request${state.report.requests === 1 ? '' : 's'} at the door` : ''}
              {state.report.links ? `, ${state.report.links} replay link${state.report.links === 1 ? '' : 's'} (↻)` : ''}
              {state.report.skipped > 0 ? `; ${state.report.skipped} non-MCP entries skipped` : ''}.
            </div>
            {state.report.problems.length > 0 && (
              <details open>
                <summary className="error">{state.report.problems.length} part{state.report.problems.length === 1 ? '' : 's'} could not be imported</summary>
                <ul>
                  {state.report.problems.slice(0, 50).map((p, i) => <li key={i}><strong>{p.where}</strong>: {p.message}</li>)}
                </ul>
              </details>
            )}
          </>
        )}
      </div>
    </fieldset>
  );
}
