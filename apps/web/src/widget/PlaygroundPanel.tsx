/**
 * The widget playground under a captured call's widget: what the widget receives (toolInput, the
 * result's structuredContent and _meta) edited and re-rendered, another captured result of the same
 * tool flipped in to see a shape change, and where the HTML comes from (the capture, a
 * resources/read made now on the live server, or a local file the proxy watches).
 *
 * Reading now goes through the proxy's widget API, which refuses a call imported from a file (it
 * never reaches a live server); a local file is named here and read by the proxy, read-only.
 */
import { useState } from 'react';
import type { WidgetCapturedResult, WidgetPreview } from '@mcpscope/protocol';
import { saveFile } from '../ui/save-file.js';
import { dataOf, editedExport, EDITED_NOTE, parseTexts, shapeChanges, textsOf, type DataSource, type DataTexts, type WidgetData } from './playground.js';

export interface Shown {
  data: WidgetData;
  source: DataSource;
  /** The call as the widget gets it (status, error from the captured call it came from). */
  call: WidgetPreview['call'];
}

interface Props {
  preview: WidgetPreview;
  others: WidgetCapturedResult[];
  shown: Shown;
  onShow(shown: Shown): void;
  htmlBusy: boolean;
  htmlProblem?: string;
  onReadLive(): void;
  onUseFile(path: string): void;
  onStopFile(): void;
}

const FIELDS: { key: keyof DataTexts; label: string; hint: string }[] = [
  { key: 'toolInput', label: 'toolInput', hint: 'the arguments' },
  { key: 'structuredContent', label: 'structuredContent', hint: 'the model and the widget' },
  { key: 'meta', label: '_meta', hint: 'the widget only' },
];

export function PlaygroundPanel({ preview, others, shown, onShow, htmlBusy, htmlProblem, onReadLive, onUseFile, onStopFile }: Props) {
  const [texts, setTexts] = useState<DataTexts>(() => textsOf(shown.data));
  const [problem, setProblem] = useState<string>();
  const [path, setPath] = useState(preview.resource?.file?.path ?? '');
  // The other results arrive after the panel: until one is chosen, the newest.
  const [chosen, setCompareWith] = useState('');
  const compareWith = chosen || others[0]?.exchangeId || '';
  const show = (next: Shown) => {
    setTexts(textsOf(next.data));
    setProblem(undefined);
    onShow(next);
  };
  const captured = (id: string): Shown | undefined => {
    if (id === preview.exchangeId) return { data: dataOf(preview.call), source: { kind: 'captured', exchangeId: id }, call: preview.call };
    const other = others.find((o) => o.exchangeId === id);
    if (!other) return undefined;
    const call: WidgetPreview['call'] = { status: other.status, arguments: other.arguments, ...(other.result ? { result: other.result } : {}), ...(other.error ? { error: other.error } : {}) };
    return { data: dataOf(call), source: { kind: 'captured', exchangeId: id }, call };
  };
  const shownId = shown.source.kind === 'captured' ? shown.source.exchangeId : shown.source.from;
  const flipTarget = shownId === preview.exchangeId ? compareWith : preview.exchangeId;
  const other = others.find((o) => o.exchangeId === compareWith);
  const changes = other ? shapeChanges(preview.call.result?.structuredContent, other.result?.structuredContent) : [];
  const apply = () => {
    const parsed = parseTexts(texts);
    if (!parsed.ok) return setProblem(parsed.message);
    setProblem(undefined);
    onShow({ data: parsed.data, source: { kind: 'edited', from: shownId }, call: { ...shown.call } });
  };
  const resource = preview.resource;
  return (
    <section className="widget-playground" data-testid="widget-playground" data-shown={shown.source.kind === 'edited' ? 'edited' : shown.source.exchangeId}>
      <h4>
        Playground{' '}
        {shown.source.kind === 'edited' ? (
          <span className="edited-badge" data-testid="playground-edited">edited data</span>
        ) : (
          <span className="muted">the widget shows #{shown.source.exchangeId}{shown.source.exchangeId === preview.exchangeId ? ' (this call)' : ''} as captured</span>
        )}
      </h4>
      <div className="playground-row">
        <label>
          Another result of {preview.toolName}{' '}
          <select data-testid="playground-other" value={compareWith} disabled={others.length === 0} onChange={(e) => setCompareWith(e.target.value)}>
            {others.length === 0 && <option value="">(no other captured call)</option>}
            {others.map((o) => (
              <option key={o.exchangeId} value={o.exchangeId}>
                #{o.exchangeId} · {new Date(o.startTs).toLocaleTimeString()} · {o.status}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="small" data-testid="playground-flip" disabled={!flipTarget} onClick={() => flipTarget && show(captured(flipTarget)!)}>
          Flip to #{flipTarget || '—'}
        </button>
        {other && (
          <span className="muted" data-testid="playground-shape">
            {changes.length === 0 ? `structuredContent has the same shape in #${other.exchangeId}` : `shape in #${other.exchangeId}: ${changes.map((c) => `${c.path} ${c.change}${c.change === 'retyped' ? ` ${c.before}→${c.after}` : ''}`).join(', ')}`}
          </span>
        )}
      </div>
      <div className="playground-fields">
        {FIELDS.map((f) => (
          <label key={f.key} className="playground-field">
            <span>
              {f.label} <span className="muted">{f.hint}</span>
            </span>
            <textarea spellCheck={false} data-testid={`playground-${f.key}`} value={texts[f.key]} placeholder="(absent)" onChange={(e) => setTexts({ ...texts, [f.key]: e.target.value })} />
          </label>
        ))}
      </div>
      <div className="playground-row">
        <button type="button" className="small primary" data-testid="playground-apply" onClick={apply}>
          Apply &amp; re-render
        </button>
        <button type="button" className="small" data-testid="playground-reset" onClick={() => show(captured(preview.exchangeId)!)}>
          Back to this call
        </button>
        <button
          type="button"
          className="small"
          data-testid="playground-export"
          disabled={shown.source.kind !== 'edited'}
          title={`Download the data the widget shows, marked as ${EDITED_NOTE}`}
          onClick={() => saveFile(new Blob([editedExport(preview.exchangeId, preview.toolName, shown.data)], { type: 'application/json' }), `${preview.toolName}-${preview.exchangeId}-edited.json`)}
        >
          Download edited data
        </button>
        {problem && <span className="error-text" data-testid="playground-problem">{problem}</span>}
      </div>
      <div className="playground-row" data-testid="playground-html">
        <span>HTML:</span>
        <button type="button" className="small" data-testid="playground-read-live" disabled={!preview.canCall || htmlBusy} title={preview.canCall ? `resources/read ${preview.declaration.uri} on ${preview.server ?? 'the server'} now (captured, linked to this call)` : preview.cannotCallReason} onClick={onReadLive}>
          Reload from the server
        </button>
        <input type="text" className="playground-path" data-testid="playground-file-path" placeholder="/absolute/path/to/widget.html" value={path} onChange={(e) => setPath(e.target.value)} />
        <button type="button" className="small" data-testid="playground-file-use" disabled={!path.trim() || htmlBusy} onClick={() => onUseFile(path.trim())} title="The proxy reads this .html file (read-only) and re-renders the widget each time it changes">
          Watch file
        </button>
        {resource?.source === 'file' && (
          <button type="button" className="small" data-testid="playground-file-stop" onClick={onStopFile}>
            Stop watching
          </button>
        )}
        {resource?.source === 'file' && resource.file && (
          <span className="muted" data-testid="playground-file-state" data-version={resource.file.version}>
            {resource.file.path} · version {resource.file.version}
            {resource.file.uri === '*' ? ' (--widget-file, every widget)' : ''}
            {resource.file.problem ? ` · ${resource.file.problem}` : ''}
          </span>
        )}
        {htmlProblem && <span className="error-text" data-testid="playground-html-problem">{htmlProblem}</span>}
      </div>
    </section>
  );
}
