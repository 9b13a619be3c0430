/**
 * The export menu: download the capture (or the current filter) as JSONL or HAR, and import a
 * file. Before anything downloads it shows what the export holds and what redaction will remove;
 * an unredacted export takes an explicit tick, and says plainly what that means.
 */
import { ownSessionKey, shortSessionKey } from '../ui/short-key.js';
import { useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { useSessionChoices } from '../store/session-choices.js';
import type { ExportPreview } from '@mcpscope/protocol';
import { downloadExport, fetchPreview, type ExportFormat, type ExportParams } from './export-api.js';
import { parseRedactInput, summariseRedaction } from './redaction-summary.js';
import { ImportSection } from './ImportSection.js';
import { useEscapeLayer } from '../ui/escape-layers.js';
import './export-menu.css';

export interface ExportMenuProps {
  api: ApiClient;
  /** The timeline's current filter expression ('' = everything). */
  filter: string;
}

const FORMATS: { value: ExportFormat; label: string; hint: string }[] = [
  { value: 'jsonl', label: 'JSONL', hint: 'lossless; mcpscope imports it back exactly' },
  { value: 'har', label: 'HAR 1.2', hint: 'opens in Chrome DevTools and HAR viewers; SSE events kept' },
];

export function ExportMenu({ api, filter }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  useEscapeLayer(open, () => setOpen(false));
  return (
    <div className="export-menu">
      <button type="button" data-testid="export-menu-button" aria-expanded={open} aria-haspopup="dialog" onClick={() => setOpen((o) => !o)}>
        Export / Import
      </button>
      {open && <ExportPanel api={api} filter={filter} onClose={() => setOpen(false)} />}
    </div>
  );
}

type PreviewState = { status: 'loading' } | { status: 'ready'; preview: ExportPreview } | { status: 'error'; message: string };

function ExportPanel({ api, filter, onClose }: ExportMenuProps & { onClose(): void }) {
  const [format, setFormat] = useState<ExportFormat>('jsonl');
  const [scope, setScope] = useState<'filter' | 'session' | 'all'>(filter.trim() ? 'filter' : 'all');
  const [session, setSession] = useState<string>('');
  const { sessions, more } = useSessionChoices(session);
  const [extraText, setExtraText] = useState('');
  const [extra, setExtra] = useState<string[]>([]);
  const [unredacted, setUnredacted] = useState(false);
  const [preview, setPreview] = useState<PreviewState>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string>();

  // Typing a key list should not fire a preview per keystroke.
  useEffect(() => {
    const t = setTimeout(() => setExtra(parseRedactInput(extraText)), 300);
    return () => clearTimeout(t);
  }, [extraText]);

  // The session chosen in the sidebar, else the newest.
  const sessionKey = session || sessions[0]?.sessionKey || '';
  const params: ExportParams = {
    format,
    redact: extra,
    unredacted,
    ...(scope === 'filter' && filter.trim() ? { filter } : {}),
    ...(scope === 'session' && sessionKey ? { session: sessionKey } : {}),
  };
  const key = JSON.stringify(params);
  // The preview counts what is captured now: it is read again as the capture grows (the last
  // count stays up meanwhile), and from scratch when the choices change.
  const captured = useLive((s) => s.tick);
  const previewedKey = useRef(key);
  useEffect(() => {
    const abort = new AbortController();
    if (previewedKey.current !== key) setPreview({ status: 'loading' });
    previewedKey.current = key;
    fetchPreview(api, JSON.parse(key) as ExportParams, abort.signal).then(
      (p) => setPreview({ status: 'ready', preview: p }),
      (err: Error) => abort.signal.aborted || setPreview({ status: 'error', message: err.message }),
    );
    return () => abort.abort();
  }, [api, key, captured]);

  const download = async () => {
    setBusy(true);
    setNotice(undefined);
    try {
      setNotice(`Downloaded ${await downloadExport(api, params)}`);
    } catch (err) {
      setNotice(`Export failed: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const summary = preview.status === 'ready' ? summariseRedaction(preview.preview) : undefined;
  return (
    <div className="export-panel" role="dialog" aria-label="Export and import" data-testid="export-panel">
      <div className="export-panel-head">
        <strong>Export</strong>
        <button type="button" className="link" onClick={onClose} aria-label="Close">×</button>
      </div>
      <fieldset>
        <legend>What</legend>
        <label>
          <input type="radio" name="scope" checked={scope === 'filter'} disabled={!filter.trim()} onChange={() => setScope('filter')} />
          The current filter{filter.trim() ? <code>{filter}</code> : ' (none set)'}
        </label>
        <label>
          <input type="radio" name="scope" checked={scope === 'session'} disabled={sessions.length === 0} onChange={() => setScope('session')} /> One session{' '}
          <select aria-label="Session" value={sessionKey} disabled={scope !== 'session'} onChange={(e) => setSession(e.target.value)}>
            {sessions.map((s) => (
              <option key={s.sessionKey} value={s.sessionKey} title={s.sessionKey}>
                {s.clientLabel ? `${s.clientLabel} — ` : ''}
                {ownSessionKey(s.sessionKey).length > 24 ? `${shortSessionKey(s.sessionKey, 24)}…` : ownSessionKey(s.sessionKey)}
              </option>
            ))}
            {more > 0 && <option disabled value="" data-testid="sessions-not-offered">{`… ${more} more: choose one in the sidebar to offer it here`}</option>}
          </select>
        </label>
        <label>
          <input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} /> Everything captured
        </label>
      </fieldset>
      <fieldset>
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <label key={f.value}>
            <input type="radio" name="format" value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} /> {f.label}
            <span className="hint"> — {f.hint}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Redaction</legend>
        <label className="stack">
          Also redact these keys or JSON paths
          <input type="text" data-testid="export-redact-input" placeholder="card_number, $.params.arguments.pin" value={extraText} onChange={(e) => setExtraText(e.target.value)} />
        </label>
        <label className={unredacted ? 'danger' : ''}>
          <input type="checkbox" data-testid="export-unredacted" checked={unredacted} onChange={(e) => setUnredacted(e.target.checked)} /> Include secrets (unredacted export)
        </label>
        <div className={`export-preview tone-${summary?.tone ?? 'safe'}`} data-testid="export-preview" aria-live="polite">
          {preview.status === 'loading' && <span className="hint">Checking what this export holds…</span>}
          {preview.status === 'error' && <span className="error">{preview.message}</span>}
          {summary && (
            <>
              <div>{summary.headline}</div>
              {summary.details.length > 0 && (
                <ul>
                  {summary.details.map((d) => <li key={d}>{d}</li>)}
                </ul>
              )}
            </>
          )}
          {preview.status === 'ready' && preview.preview.redaction.enabled && (
            <details>
              <summary>Redaction rules</summary>
              <ul>
                {preview.preview.redaction.rules.map((r) => <li key={r}>{r}</li>)}
              </ul>
            </details>
          )}
        </div>
      </fieldset>
      <div className="export-actions">
        <button type="button" data-testid="export-download" className={unredacted ? 'danger' : 'primary'} disabled={busy || preview.status !== 'ready'} onClick={download}>
          {busy ? 'Preparing…' : `Download ${unredacted ? 'unredacted ' : ''}${format === 'har' ? 'HAR' : 'JSONL'}`}
        </button>
        {notice && <span className="hint" data-testid="export-notice">{notice}</span>}
      </div>
      <ImportSection api={api} />
    </div>
  );
}
