/**
 * The detail pane's Widget tab for a tools/call whose tool declares a widget: the widget rendered
 * from the captured call (its arguments and result exactly as recorded, the HTML from the newest
 * captured resources/read of its URI, or read now through mcpscope's own session when the capture
 * has none), the host settings, who sees what of the result, the lints, and the event log.
 */
import { useEffect, useMemo, useState } from 'react';
import type { WidgetPreview, WidgetResourceView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useUi } from '../store/ui-store.js';
import { EventLog } from './event-log.js';
import { EventLogView } from './EventLogView.js';
import { defaultSettings, type HostSettings } from './host-settings.js';
import { HostSettingsBar } from './HostSettingsBar.js';
import { ResultPanel } from './ResultPanel.js';
import { WidgetApi } from './widget-api.js';
import { WidgetStage } from './WidgetStage.js';
import './widget.css';

type Load = { state: 'loading' } | { state: 'reading'; preview: WidgetPreview } | { state: 'ready'; preview: WidgetPreview } | { state: 'failed'; message: string; preview?: WidgetPreview };

function usePreview(api: WidgetApi, exchangeId: string, updatedSeq: number): Load {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      let preview = await api.preview(exchangeId, abort.signal);
      if (!preview.resource && !preview.resourceProblem && preview.canCall) {
        setLoad({ state: 'reading', preview });
        try {
          preview = await api.readNow(exchangeId, abort.signal);
        } catch (err) {
          if (!abort.signal.aborted) setLoad({ state: 'failed', message: `Reading ${preview.declaration.uri} through mcpscope's own session failed: ${(err as Error).message}`, preview });
          return;
        }
      }
      setLoad({ state: 'ready', preview });
    })().catch((err: Error) => !abort.signal.aborted && setLoad({ state: 'failed', message: err.message }));
    return () => abort.abort();
  }, [api, exchangeId, updatedSeq]);
  return load;
}

export default function WidgetTab({ api, exchangeId, updatedSeq }: { api: ApiClient; exchangeId: string; updatedSeq: number }) {
  const widgetApi = useMemo(() => new WidgetApi(api), [api]);
  const load = usePreview(widgetApi, exchangeId, updatedSeq);
  const dashboardTheme = useUi((s) => s.theme);
  const [settings, setSettings] = useState<HostSettings>(() => defaultSettings(dashboardTheme));
  const [reloadKey, setReloadKey] = useState(0);
  const [widgetState, setWidgetState] = useState<unknown>(undefined);
  // One log per preview of one call: a reload keeps it (that is when it is most useful).
  const log = useMemo(() => new EventLog(), [exchangeId]);

  if (load.state === 'loading') return <section className="widget-tab muted" data-testid="widget-tab">Loading the widget…</section>;
  if (load.state === 'failed' && !load.preview) return <section className="widget-tab error-text" data-testid="widget-tab">{load.message}</section>;
  const preview = load.preview!;
  const resource = preview.resource;
  return (
    <section className="widget-tab" data-testid="widget-tab">
      <p className="widget-source" data-testid="widget-source">
        <code>{preview.declaration.uri}</code>{' '}
        {preview.declaration.mcpApps && preview.declaration.appsSdk ? 'declared for MCP Apps and the Apps SDK' : preview.declaration.mcpApps ? 'declared for MCP Apps' : 'declared for the Apps SDK'}
        {resource && (
          <>
            {' · '}HTML from resources/read{' '}
            <button type="button" className="link" onClick={() => useUi.getState().select(resource.exchangeId, true)}>
              #{resource.exchangeId}
            </button>{' '}
            {resource.source === 'read-now' ? '(read now by mcpscope: the capture had none)' : resource.sameSession ? '(same session)' : '(another session of the capture)'}
            {' · '}
            {resource.mimeType ?? 'no MIME type'} · {resource.bytes.toLocaleString()} bytes
          </>
        )}
      </p>
      {load.state === 'reading' && <p className="muted" data-testid="widget-reading">The capture has no resources/read of {preview.declaration.uri}: reading it now through mcpscope’s own session (it is captured too)…</p>}
      {load.state === 'failed' && <p className="error-text">{load.message}</p>}
      {preview.resourceProblem && <p className="error-text">{preview.resourceProblem}</p>}
      {preview.lints.length > 0 && (
        <ul className="widget-lints" data-testid="widget-lints">
          {preview.lints.map((l, i) => (
            <li key={`${l.code}-${i}`} className={`diag-${l.severity}`} data-code={l.code}>
              <strong>{l.code}</strong> {l.message}
            </li>
          ))}
        </ul>
      )}
      <HostSettingsBar settings={settings} onChange={setSettings} onReload={() => setReloadKey((k) => k + 1)} canCall={preview.canCall} />
      {resource ? (
        <WidgetStage
          preview={preview as WidgetPreview & { resource: WidgetResourceView }}
          settings={settings}
          reloadKey={reloadKey}
          api={widgetApi}
          log={log}
          onDisplayMode={(displayMode) => setSettings((s) => ({ ...s, displayMode }))}
          onWidgetState={setWidgetState}
        />
      ) : (
        load.state !== 'reading' && !preview.canCall && <p className="muted">This capture has no resources/read of the widget, and nothing can be read from here (no upstream).</p>
      )}
      <ResultPanel result={preview.call.result} widgetState={widgetState} />
      <EventLogView log={log} />
    </section>
  );
}
