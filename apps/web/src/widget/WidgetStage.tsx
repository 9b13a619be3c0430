/**
 * Where the widget runs: one sandboxed iframe on the widget's own origin, sized as the host
 * settings say (a desktop or a mobile width; inline up to max height, fullscreen over the
 * dashboard, picture-in-picture floating). The iframe element never moves in the DOM — moving it
 * would reload the widget — so display modes only change its box. It is started once per widget
 * (and per host profile, or Reload); every other setting reaches the running widget live.
 */
import { useEffect, useRef, useState } from 'react';
import type { WidgetPreview, WidgetResourceView } from '@mcpscope/protocol';
import type { EventLog } from './event-log.js';
import { DEVICE_WIDTH, PIP_SIZE, type DisplayMode, type HostSettings } from './host-settings.js';
import { sandboxOrigin, startWidgetBridge, type WidgetBridgeHandle } from './widget-bridge.js';
import type { WidgetApi } from './widget-api.js';

interface Props {
  preview: WidgetPreview & { resource: WidgetResourceView };
  settings: HostSettings;
  reloadKey: number;
  api: WidgetApi;
  log: EventLog;
  onDisplayMode(mode: DisplayMode): void;
  onWidgetState(state: unknown): void;
  askConsent(tool: string): Promise<boolean>;
  /** What the widget is fed when it is not this call as captured (edited data, another call's result). */
  dataLabel?: string;
  /** The data was edited by the user: the frame's label says so. */
  edited?: boolean;
}

const FULLSCREEN_MARGIN = 48;
/** The "back to inline" bar above a fullscreen or picture-in-picture widget. */
const EXIT_BAR = 34;
const stageHeight = () => Math.max(200, window.innerHeight - 2 * FULLSCREEN_MARGIN - EXIT_BAR);

export function WidgetStage({ preview, settings, reloadKey, api, log, onDisplayMode, onWidgetState, askConsent, dataLabel, edited = false }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);

  const handle = useRef<WidgetBridgeHandle | undefined>(undefined);
  const [height, setHeight] = useState<number | undefined>();
  const [origin, setOrigin] = useState<string>();
  const [stopped, setStopped] = useState(false);
  // Callbacks change identity on every render; the bridge keeps calling the latest.
  const latest = useRef({ onDisplayMode, onWidgetState, askConsent });
  latest.current = { onDisplayMode, onWidgetState, askConsent };
  const settingsRef = useRef(settings);
  settingsRef.current = settings;

  useEffect(() => {
    const iframe = frame.current;
    const port = preview.sandboxPort;
    if (!iframe || port === undefined) return;
    let cancelled = false;
    const widgetOrigin = sandboxOrigin(port);
    setOrigin(widgetOrigin);
    setHeight(undefined);
    setStopped(false);
    const started = startWidgetBridge(
      {
        iframe,
        preview,
        settings: settingsRef.current,
        stageHeight,
        api,
        log,
        onSize: (h) => setHeight(Math.ceil(h)),
        onDisplayMode: (m) => latest.current.onDisplayMode(m),
        onWidgetState: (s) => latest.current.onWidgetState(s),
        askConsent: (tool) => latest.current.askConsent(tool),
        onStopped: () => setStopped(true),
        ...(dataLabel ? { dataLabel } : {}),
      },
      widgetOrigin,
    ).then(
      (h) => {
        if (cancelled) void h.close();
        else handle.current = h;
        return h;
      },
      (err: Error) => {
        log.add('error', `the preview could not start: ${err.message}`);
        return undefined;
      },
    );
    return () => {
      cancelled = true;
      handle.current = undefined;
      void started.then((h) => h?.close());
      // The src stays: removing it would navigate the frame to about:blank, racing the next
      // bridge's navigation to its sandbox. The next src replaces the old document.
    };
    // One bridge per widget and host profile (window.openai is injected at load): not per setting.
  }, [preview.exchangeId, preview.resource.exchangeId, preview.resource.file?.version, preview.resource.source, preview.call.status, preview.sandboxPort, settings.profile, reloadKey, api, log]);

  useEffect(() => {
    handle.current?.update(settings);
  }, [settings]);

  const width = settings.displayMode === 'pip' ? PIP_SIZE.width : DEVICE_WIDTH[settings.device];
  const inlineHeight = Math.min(Math.max(height ?? 160, 40), settings.displayMode === 'pip' ? PIP_SIZE.height : settings.maxHeight);
  // Fullscreen fills the overlay (CSS); picture-in-picture adds its bar above the widget.
  const style = settings.displayMode === 'fullscreen' ? {} : settings.displayMode === 'pip' ? { width, height: inlineHeight + EXIT_BAR } : { width, height: inlineHeight };
  return (
    <div className="widget-stage" data-testid="widget-stage">
      {dataLabel && (
        <p className={edited ? 'widget-data-label edited' : 'widget-data-label'} data-testid="widget-data-label" data-edited={edited}>
          {edited ? 'EDITED — ' : ''}the widget shows {dataLabel}
        </p>
      )}
      <div className={`widget-box mode-${settings.displayMode}${preview.resource.prefersBorder !== false ? ' bordered' : ''}`} style={style} data-display-mode={settings.displayMode} data-testid="widget-box">
        {settings.displayMode !== 'inline' && (
          <button type="button" className="widget-exit small" onClick={() => latest.current.onDisplayMode('inline')} data-testid="widget-exit">
            back to inline
          </button>
        )}
        {stopped && <p className="widget-stopped error-text" data-testid="widget-stopped">Stopped: the widget flooded the dashboard with messages. See the event log; Reload to run it again.</p>}
        <iframe ref={frame} title={`${preview.toolName} widget${edited ? ' (edited data)' : ''}`} sandbox="allow-scripts allow-same-origin allow-forms" data-testid="widget-frame" data-origin={origin} />
      </div>
    </div>
  );
}
