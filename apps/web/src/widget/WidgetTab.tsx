/**
 * The detail pane's Widget tab for a tools/call whose tool declares a widget: the widget rendered
 * from the captured call (its arguments and result exactly as recorded, the HTML from the newest
 * captured resources/read of its URI, or read now through mcpscope's own session when the capture
 * has none), the host settings, who sees what of the result, the lints, and the event log.
 * It says where the HTML came from, and asks the user before the widget's first call of a tool.
 * The playground below the widget changes what it is fed and where its HTML comes from; edited
 * data is marked wherever the widget shows (the frame's label, the detail pane's tab, the log).
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { WidgetCapturedResult, WidgetPreview, WidgetResourceView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useUi } from '../store/ui-store.js';
import { EventLog } from './event-log.js';
import { EventLogView } from './EventLogView.js';
import { defaultSettings, type HostSettings } from './host-settings.js';
import { HostSettingsBar } from './HostSettingsBar.js';
import { ResultPanel } from './ResultPanel.js';
import { ConsentAsks } from './consent-asks.js';
import { ConsentPrompt } from './ConsentPrompt.js';
import { WidgetApi } from './widget-api.js';
import { WidgetStage } from './WidgetStage.js';
import { PlaygroundPanel, type Shown } from './PlaygroundPanel.js';
import { callWith, dataOf, EDITED_NOTE } from './playground.js';
import { useWidgetEdited } from './edited-store.js';
import './widget.css';

type Load = { state: 'loading' } | { state: 'reading'; preview: WidgetPreview } | { state: 'ready'; preview: WidgetPreview } | { state: 'failed'; message: string; preview?: WidgetPreview };

/** `resource`: a resources/read made now; `fileVersion` changes when the watched file does. */
function usePreview(api: WidgetApi, exchangeId: string, updatedSeq: number, resource: string | undefined, fileVersion: number): Load {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      let preview = await api.preview(exchangeId, abort.signal, resource);
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
  }, [api, exchangeId, updatedSeq, resource, fileVersion]);
  return load;
}

/** Other captured results of the call's tool (for flipping), read once per call. */
function useOtherResults(api: WidgetApi, exchangeId: string): WidgetCapturedResult[] {
  const [others, setOthers] = useState<WidgetCapturedResult[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    api.results(exchangeId, abort.signal).then(setOthers, () => !abort.signal.aborted && setOthers([]));
    return () => abort.abort();
  }, [api, exchangeId]);
  return others;
}

/** Bumps when the proxy says a watched widget file changed or stopped. */
function useFileVersion(api: WidgetApi): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    api.fileEvents(() => setVersion((v) => v + 1), abort.signal).catch(() => undefined);
    return () => abort.abort();
  }, [api]);
  return version;
}

export default function WidgetTab({ api, exchangeId, updatedSeq }: { api: ApiClient; exchangeId: string; updatedSeq: number }) {
  const widgetApi = useMemo(() => new WidgetApi(api), [api]);
  const [liveRead, setLiveRead] = useState<string>();
  const [htmlBusy, setHtmlBusy] = useState(false);
  const [htmlProblem, setHtmlProblem] = useState<string>();
  const fileVersion = useFileVersion(widgetApi);
  const load = usePreview(widgetApi, exchangeId, updatedSeq, liveRead, fileVersion);
  const others = useOtherResults(widgetApi, exchangeId);
  const [shown, setShown] = useState<Shown | undefined>();
  const edited = shown?.source.kind === 'edited';
  useEffect(() => {
    useWidgetEdited.getState().mark(exchangeId, edited);
    return () => useWidgetEdited.getState().mark(exchangeId, false);
  }, [exchangeId, edited]);
  const dashboardTheme = useUi((s) => s.theme);
  const [settings, setSettings] = useState<HostSettings>(() => defaultSettings(dashboardTheme));
  const [reloadKey, setReloadKey] = useState(0);
  const [widgetState, setWidgetState] = useState<unknown>(undefined);
  // One log per preview of one call: a reload keeps it (that is when it is most useful).
  const log = useMemo(() => new EventLog(), [exchangeId]);
  // One set of questions per run of the widget: a Reload asks again about what was denied.
  const asks = useMemo(() => new ConsentAsks(), [exchangeId, reloadKey]);
  useEffect(() => () => asks.close(), [asks]);
  const ask = useSyncExternalStore(
    (onChange) => asks.subscribe(onChange),
    () => asks.current(),
  );

  if (load.state === 'loading') return <section className="widget-tab muted" data-testid="widget-tab">Loading the widget…</section>;
  if (load.state === 'failed' && !load.preview) return <section className="widget-tab error-text" data-testid="widget-tab">{load.message}</section>;
  const preview = load.preview!;
  const resource = preview.resource;
  const fed = shown ?? { data: dataOf(preview.call), source: { kind: 'captured' as const, exchangeId }, call: preview.call };
  const htmlAction = async (act: () => Promise<unknown>) => {
    setHtmlBusy(true);
    setHtmlProblem(undefined);
    try {
      await act();
    } catch (err) {
      setHtmlProblem((err as Error).message);
    } finally {
      setHtmlBusy(false);
    }
  };
  const stagePreview = shown ? { ...preview, call: shown.source.kind === 'edited' ? callWithData(shown) : shown.call } : preview;
  const dataLabel = edited ? `edited data (${EDITED_NOTE})` : fed.source.kind === 'captured' && fed.source.exchangeId !== exchangeId ? `the captured result of #${fed.source.exchangeId}` : undefined;
  return (
    <section className="widget-tab" data-testid="widget-tab">
      <p className="widget-source" data-testid="widget-source">
        <code>{preview.declaration.uri}</code>{' '}
        {preview.declaration.mcpApps && preview.declaration.appsSdk ? 'declared for MCP Apps and the Apps SDK' : preview.declaration.mcpApps ? 'declared for MCP Apps' : 'declared for the Apps SDK'}
        {resource && (
          <>
            {' · '}
            {resource.exchangeId !== undefined ? (
              <>
                HTML from resources/read{' '}
                <button type="button" className="link" onClick={() => useUi.getState().select(resource.exchangeId, true)}>
                  #{resource.exchangeId}
                </button>
              </>
            ) : (
              'HTML'
            )}{' '}
            <span data-testid="widget-provenance" data-source={resource.source}>
              {provenance(resource)}
            </span>
            {' · '}
            {resource.mimeType ?? 'no MIME type'} · {resource.bytes.toLocaleString()} bytes
          </>
        )}
      </p>
      {preview.cannotCallReason && (
        <p className="muted" data-testid="widget-cannot-call">
          {preview.cannotCallReason}
        </p>
      )}
      {ask && <ConsentPrompt ask={ask} server={preview.server ?? 'the server'} />}
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
          preview={stagePreview as WidgetPreview & { resource: WidgetResourceView }}
          {...(dataLabel ? { dataLabel, edited } : {})}
          settings={settings}
          reloadKey={reloadKey}
          api={widgetApi}
          log={log}
          onDisplayMode={(displayMode) => setSettings((s) => ({ ...s, displayMode }))}
          onWidgetState={setWidgetState}
          askConsent={(tool) => asks.ask(tool)}
        />
      ) : (
        load.state !== 'reading' && !preview.canCall && <p className="muted">This capture has no resources/read of the widget for this call, and nothing can be read from here.</p>
      )}
      <PlaygroundPanel
        key={exchangeId}
        preview={preview}
        others={others}
        shown={fed}
        onShow={(next) => {
          setShown(next);
          setReloadKey((k) => k + 1);
        }}
        htmlBusy={htmlBusy}
        {...(htmlProblem ? { htmlProblem } : {})}
        onReadLive={() => void htmlAction(async () => setLiveRead((await widgetApi.readNow(exchangeId)).resource?.exchangeId))}
        onUseFile={(path) =>
          void htmlAction(async () => {
            await widgetApi.useFile(exchangeId, path);
            setLiveRead(undefined);
          })
        }
        onStopFile={() => void htmlAction(() => widgetApi.stopFile(exchangeId))}
      />
      <ResultPanel result={stagePreview.call.result} widgetState={widgetState} />
      <EventLogView log={log} />
    </section>
  );
}

/** The call an edited Shown feeds the widget. */
function callWithData(shown: Shown): WidgetPreview['call'] {
  return callWith(shown.call, shown.data);
}

/** Where the widget's HTML came from, in the words the tab shows. */
function provenance(resource: WidgetResourceView): string {
  switch (resource.source) {
    case 'file':
      return `(from the local file ${resource.file?.path ?? ''}, version ${resource.file?.version ?? 1}, watched: not what the server serves)`;
    case 'read-now':
      return '(read now by mcpscope from the live server: the capture had none)';
    case 'imported':
      return `(imported from ${resource.importedFrom ?? 'a file'}${resource.sameSession ? ', same session' : ''})`;
    case 'captured':
      return resource.sameSession ? '(captured in this session)' : resource.sameConversation ? '(captured in this conversation)' : '(captured in another session of the capture)';
  }
}
