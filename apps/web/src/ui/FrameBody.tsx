/**
 * One frame's body: a collapsible tree (when it is JSON) or the exact raw text, with copy and
 * download. Bodies over PREVIEW_CHARS show a preview that states the full size, and the rest on
 * demand; the tree is not built for bodies too large to parse comfortably. A body the API cut
 * (`truncated`) says so and fetches the whole text from `/api/frames/:seq/raw` when asked.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { utf8Length } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { downloadText } from '../lib/clipboard.js';
import { formatSize } from './status.js';
import { CopyButton } from './CopyButton.js';
import { JsonTree, type TreeMark } from './JsonTree.js';

const JsonEditor = lazy(() => import('./JsonEditor.js'));

export const PREVIEW_CHARS = 100_000;
const TREE_LIMIT = 5_000_000;

type Mode = 'tree' | 'raw' | 'editor';

function parse(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

interface FrameBodyProps {
  raw: string;
  seq: number;
  marks: readonly TreeMark[];
  /** UTF-8 bytes of the whole body (FrameView.bytes); counted from `raw` when not given. */
  fullBytes?: number;
  /** The API cut this body; `api` fetches the rest. */
  truncated?: boolean;
  api?: ApiClient;
}

export function FrameBody({ raw: given, seq, marks, fullBytes, truncated = false, api }: FrameBodyProps) {
  const [complete, setComplete] = useState<string | undefined>();
  const [fetchError, setFetchError] = useState<string | undefined>();
  const raw = complete ?? given;
  const cutByApi = truncated && complete === undefined;
  const fetchAll = async () => {
    try {
      const text = await api!.rawFrame(seq);
      setComplete(text);
      return text;
    } catch (err) {
      setFetchError((err as Error).message);
      return undefined;
    }
  };
  const parsed = useMemo(() => (raw.length <= TREE_LIMIT ? parse(raw) : ({ ok: false } as const)), [raw]);
  const [mode, setMode] = useState<Mode>(parsed.ok ? 'tree' : 'raw');
  const [whole, setWhole] = useState(false);
  const size = useMemo(() => fullBytes ?? utf8Length(raw), [fullBytes, raw]);
  const cut = !whole && raw.length > PREVIEW_CHARS;
  // What a cut view holds, in the same unit as `size`: counted once per body, not per render.
  const heldBytes = useMemo(() => (cutByApi ? utf8Length(given) : 0), [cutByApi, given]);
  const previewBytes = useMemo(() => (raw.length > PREVIEW_CHARS ? utf8Length(raw.slice(0, PREVIEW_CHARS)) : 0), [raw]);
  const modes: Mode[] = parsed.ok ? ['tree', 'raw', 'editor'] : ['raw'];
  return (
    <div className="body">
      <div className="body-bar">
        <span role="tablist" className="segmented" aria-label="Body view">
          {modes.map((m) => (
            <button key={m} type="button" role="tab" aria-selected={mode === m} className={mode === m ? 'on' : ''} onClick={() => setMode(m)}>
              {m === 'tree' ? 'Tree' : m === 'raw' ? 'Raw' : 'Editor'}
            </button>
          ))}
        </span>
        {!parsed.ok && <span className="muted">{cutByApi ? 'cut — load the whole body to read it as JSON' : 'not JSON — shown exactly as captured'}</span>}
        <span className="spacer" />
        <span className="muted">{formatSize(size)}</span>
        <CopyButton text={raw} />
        <button
          type="button"
          className="small"
          onClick={async () => {
            const text = cutByApi && api ? await fetchAll() : raw;
            if (text !== undefined) downloadText(text, `mcpscope-frame-${seq}.${parsed.ok || cutByApi ? 'json' : 'txt'}`);
          }}
        >
          Download
        </button>
      </div>
      {cutByApi && (
        <p className="truncated-note" data-testid="api-truncated">
          This view holds the first {formatSize(heldBytes)} of {formatSize(size)}.{' '}
          {api && <button type="button" className="link" onClick={() => void fetchAll()}>Load the whole body</button>}
          {fetchError && <span className="error-text"> {fetchError}</span>}
        </p>
      )}
      {mode === 'tree' && parsed.ok && <JsonTree value={parsed.value} marks={marks} />}
      {mode === 'raw' && (
        <>
          <pre className="raw" data-testid="raw-body">{cut ? raw.slice(0, PREVIEW_CHARS) : raw}</pre>
          {cut && (
            <p className="truncated-note">
              Showing the first {formatSize(previewBytes)} of {formatSize(size)}.{' '}
              <button type="button" className="link" onClick={() => setWhole(true)}>Show everything</button>
            </p>
          )}
        </>
      )}
      {mode === 'editor' && parsed.ok && (
        <div className="body-editor">
          <Suspense fallback={<div className="muted">Loading editor…</div>}>
            <JsonEditor value={JSON.stringify(parsed.value, null, 2)} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
