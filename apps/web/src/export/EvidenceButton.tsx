/**
 * "Evidence pack": one click writes a single self-contained file for a bug report about an
 * exchange or a conversation (the server builds it, redacted like exports). Beside it, the
 * options: Markdown or one HTML file, and a control replay of the failed call in a fresh session
 * against the live server, offered only where one can be made (a live proxy, a captured session).
 */
import { useState } from 'react';
import type { ApiClient, EvidenceQuery } from '../api/client.js';
import { saveFile } from '../ui/save-file.js';
import './evidence.css';

export interface EvidenceButtonProps {
  api: ApiClient;
  target: { exchange: string } | { conversation: string };
  /** Why no control replay can be made here; undefined when it can. */
  noReplay?: string;
}

export function EvidenceButton({ api, target, noReplay }: EvidenceButtonProps) {
  const [format, setFormat] = useState<'md' | 'html'>('md');
  const [replay, setReplay] = useState(false);
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'busy' } | { kind: 'saved'; name: string } | { kind: 'error'; message: string }>({ kind: 'idle' });
  const write = async () => {
    setState({ kind: 'busy' });
    try {
      const query: EvidenceQuery = { ...target, format, ...(replay && noReplay === undefined ? { replay: true } : {}) };
      const { name, blob } = await api.evidence(query);
      saveFile(blob, name);
      setState({ kind: 'saved', name });
    } catch (err) {
      setState({ kind: 'error', message: (err as Error).message });
    }
  };
  return (
    <span className="evidence" data-testid="evidence">
      <button type="button" data-testid="evidence-pack" disabled={state.kind === 'busy'} title="One redacted file for a bug report: verdict, frames with SHA-256, HTTP requests, timings" onClick={() => void write()}>
        {state.kind === 'busy' ? (replay ? 'Replaying…' : 'Writing…') : 'Evidence pack'}
      </button>
      <details className="evidence-options">
        <summary aria-label="Evidence pack options" title="Format and control replay">▾</summary>
        <div className="evidence-panel">
          <label>
            <input type="radio" name="evidence-format" checked={format === 'md'} onChange={() => setFormat('md')} /> Markdown (the JSON attached)
          </label>
          <label>
            <input type="radio" name="evidence-format" data-testid="evidence-html" checked={format === 'html'} onChange={() => setFormat('html')} /> One HTML file (no scripts)
          </label>
          <label title={noReplay ?? 'Send the failed call again in a fresh session to the same server, and include its answer and the difference'}>
            <input type="checkbox" data-testid="evidence-replay" disabled={noReplay !== undefined} checked={replay && noReplay === undefined} onChange={(e) => setReplay(e.target.checked)} /> Control replay of the failed call
          </label>
          {noReplay !== undefined && <p className="hint">{noReplay}</p>}
        </div>
      </details>
      {state.kind === 'saved' && <span className="hint" role="status">Saved {state.name}</span>}
      {state.kind === 'error' && <span className="error" role="alert">{state.message}</span>}
    </span>
  );
}
