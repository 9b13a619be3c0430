/**
 * Edit and replay: the whole captured message in Monaco (or a template, for a message composed
 * from scratch), sent into its live session or a fresh one; the new exchange is selected in the
 * timeline, and its response is diffed against the original's. The result can be edited and
 * replayed again: each send replays the latest replay, the diff keeps the first original.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ExchangeDetail, ReplayFailure, ReplayResponse } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { CLIENT_METHODS, templateFor, type ToolInfo } from './message-schema.js';
import { ReplayApi } from './replay-api.js';
import { ServerInputs } from './ServerInputs.js';
import { toolCallSkeleton } from './skeleton.js';
import { diffText } from './volatile.js';
import { requestFrame, requestRaw, responseRaw } from './exchange-text.js';
import { tooLargeHere } from '../api/whole-exchange.js';
import './replay.css';

const MessageEditor = lazy(() => import('./MessageEditor.js'));
const ResponseDiff = lazy(() => import('./ResponseDiff.js'));

type Mode = 'session' | 'fresh';

export interface ReplayPanelProps {
  api: ApiClient;
  /** The exchange to edit; absent (or empty) opens an empty composer with method templates. */
  exchangeId?: string;
  onClose(): void;
}

function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export function ReplayPanel({ api, exchangeId, onClose }: ReplayPanelProps) {
  const replayApi = useMemo(() => new ReplayApi(api), [api]);
  const sessions = useLive((s) => s.sessions);
  const [original, setOriginal] = useState<ExchangeDetail>();
  const [loadError, setLoadError] = useState<string>();
  const [text, setText] = useState(() => (exchangeId ? '' : templateFor('tools/list')));
  const [composerSession, setComposerSession] = useState<string>('');
  const [tools, setTools] = useState<ToolInfo[]>([]);
  const [mode, setMode] = useState<Mode>(exchangeId ? 'session' : 'fresh');
  const [busy, setBusy] = useState(false);
  const [latest, setLatest] = useState<{ response?: ReplayResponse; detail: ExchangeDetail }>();
  const [failure, setFailure] = useState<ReplayFailure>();
  const [ignoreVolatile, setIgnoreVolatile] = useState(true);
  const [curl, setCurl] = useState<string>();
  const [withSecrets, setWithSecrets] = useState(false);
  const inFlight = useRef<AbortController | undefined>(undefined);

  const sessionKey = original?.exchange.sessionKey ?? (composerSession || undefined);

  useEffect(() => {
    if (!exchangeId) return;
    const abort = new AbortController();
    replayApi
      .exchange(exchangeId, abort.signal)
      .then((detail) => {
        const cut = requestFrame(detail);
        // Past WHOLE_BODY_LIMIT the API's cut is all there is: editing it would send broken JSON.
        if (cut?.truncated) return setLoadError(`its request is ${tooLargeHere(cut.size)}, too large to edit and replay here`);
        setOriginal(detail);
        setText(pretty(requestRaw(detail)));
      })
      .catch((err: Error) => !abort.signal.aborted && setLoadError(err.message));
    return () => abort.abort();
  }, [replayApi, exchangeId]);

  useEffect(() => {
    if (!sessionKey) return setTools([]);
    let live = true;
    replayApi
      .tools(sessionKey)
      .then((list) => live && setTools(list.filter((t): t is ToolInfo & typeof t => typeof t.name === 'string') as unknown as ToolInfo[]))
      .catch(() => live && setTools([]));
    return () => {
      live = false;
    };
  }, [replayApi, sessionKey]);

  useEffect(() => () => inFlight.current?.abort(), []);

  const send = useCallback(
    async (sendMode: Mode = mode) => {
      if (busy) return;
      const abort = new AbortController();
      inFlight.current = abort;
      setBusy(true);
      setFailure(undefined);
      const baseId = latest?.detail.exchange.id ?? (exchangeId || undefined);
      try {
        const outcome = await replayApi.replay(
          { ...(baseId ? { exchangeId: baseId } : sessionKey ? { sessionKey } : {}), message: text, mode: sendMode },
          abort.signal,
        );
        const exchange = outcome.ok ? outcome.value.exchange : outcome.failure.exchange;
        if (!outcome.ok) setFailure(outcome.failure);
        if (exchange) {
          const detail = await replayApi.exchange(exchange.id);
          setLatest({ detail, ...(outcome.ok ? { response: outcome.value } : {}) });
          if (outcome.ok) setMode(sendMode);
          useUi.getState().select(exchange.id, true);
        }
      } catch (err) {
        if (!abort.signal.aborted) setFailure({ error: { code: 'network', message: (err as Error).message } });
      } finally {
        inFlight.current = undefined;
        setBusy(false);
      }
    },
    [busy, mode, latest, exchangeId, replayApi, sessionKey, text],
  );

  const copyCurl = async () => {
    const baseId = latest?.detail.exchange.id ?? (exchangeId || undefined);
    try {
      // A single command cannot do a handshake: it goes into the latest replay's session, if any.
      const target = baseId ? { exchangeId: baseId } : sessionKey ? { sessionKey } : undefined;
      const command = await replayApi.curl({ ...target, message: text, mode: target ? 'session' : 'fresh', secrets: withSecrets });
      setCurl(command);
      await navigator.clipboard?.writeText(command).catch(() => {});
    } catch (err) {
      setFailure({ error: { code: 'curl', message: (err as Error).message } });
    }
  };

  const pickTool = (name: string) => {
    const tool = tools.find((t) => t.name === name);
    if (tool) setText(toolCallSkeleton(tool));
  };

  if (loadError) {
    return (
      <div className="replay-panel" role="dialog" aria-label="Replay" data-testid="replay-panel">
        <header className="replay-head"><strong>Replay</strong><button type="button" className="ghost replay-close" onClick={onClose} aria-label="Close replay">✕</button></header>
        <div className="replay-error" role="alert">Could not load exchange {exchangeId}: {loadError}</div>
      </div>
    );
  }
  const summary = original?.exchange;
  const replayed = latest?.detail.exchange;
  const originalAnswer = diffText(responseRaw(original), ignoreVolatile);
  const replayAnswer = diffText(responseRaw(latest?.detail), ignoreVolatile);

  return (
    <div className="replay-panel" role="dialog" aria-label="Replay" data-testid="replay-panel">
      <header className="replay-head">
        <strong>Replay</strong>
        <span className="replay-what">
          {summary ? (
            <>
              of #{summary.id} <code>{summary.method}</code> {summary.target ?? ''} — <span className={`status-${summary.status}`}>{summary.status}</span>
            </>
          ) : exchangeId ? (
            'loading…'
          ) : (
            'compose a message'
          )}
        </span>
        <button type="button" className="ghost replay-close" onClick={onClose} aria-label="Close replay" data-testid="replay-close">✕</button>
      </header>

      <div className="replay-toolbar">
        {!exchangeId && (
          <label>
            Session{' '}
            <select data-testid="replay-session" value={composerSession} onChange={(e) => setComposerSession(e.target.value)}>
              <option value="">none (fresh only)</option>
              {[...sessions.values()].map((s) => (
                <option key={s.sessionKey} value={s.sessionKey}>{`${s.clientLabel ?? 'client'} · ${s.sessionKey.slice(0, 12)}`}</option>
              ))}
            </select>
          </label>
        )}
        <label>
          Template{' '}
          <select data-testid="replay-template" value="" onChange={(e) => e.target.value && setText(templateFor(e.target.value))}>
            <option value="">method…</option>
            {Object.keys(CLIENT_METHODS).map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </label>
        {tools.length > 0 && (
          <label>
            Tool{' '}
            <select data-testid="replay-tool-picker" value="" onChange={(e) => pickTool(e.target.value)}>
              <option value="">fill a valid call…</option>
              {tools.map((t) => <option key={t.name} value={t.name} title={t.description}>{t.name}</option>)}
            </select>
          </label>
        )}
        <fieldset className="replay-mode" aria-label="Replay mode">
          <label title="Into the live session: same Mcp-Session-Id, credentials and protocol version">
            <input type="radio" name="replay-mode" value="session" data-testid="replay-mode-session" checked={mode === 'session'} disabled={!sessionKey} onChange={() => setMode('session')} /> in its session
          </label>
          <label title="mcpscope opens its own session as the captured client, then sends">
            <input type="radio" name="replay-mode" value="fresh" data-testid="replay-mode-fresh" checked={mode === 'fresh'} onChange={() => setMode('fresh')} /> fresh session
          </label>
        </fieldset>
        <button type="button" className="primary" data-testid="replay-send" disabled={busy || (!!exchangeId && !original)} onClick={() => void send()} title="Ctrl/Cmd+Enter">
          {busy ? 'Sending…' : 'Send'}
        </button>
        {busy && <button type="button" className="small" onClick={() => inFlight.current?.abort()}>Stop waiting</button>}
        <span className="replay-spacer" />
        <label title="Put the real credentials in the command instead of $MCP_… placeholders">
          <input type="checkbox" checked={withSecrets} onChange={(e) => setWithSecrets(e.target.checked)} /> with secrets
        </label>
        <button type="button" className="small" data-testid="replay-copy-curl" onClick={() => void copyCurl()}>Copy as curl</button>
      </div>

      <div className="replay-editor" data-testid="replay-editor">
        <Suspense fallback={<div className="replay-loading">Loading editor…</div>}>
          {(!exchangeId || original) && <MessageEditor value={text} onChange={setText} tools={tools} onSubmit={() => void send()} />}
        </Suspense>
      </div>

      {curl && <pre className="replay-curl" data-testid="replay-curl">{curl}</pre>}
      {failure && (
        <div className="replay-error" role="alert" data-testid="replay-error" data-code={failure.error.code}>
          {failure.error.message}
          {failure.retryWith === 'fresh' && (
            <button type="button" className="small" data-testid="replay-retry-fresh" onClick={() => void send('fresh')}>Replay in a fresh session</button>
          )}
        </div>
      )}
      {latest?.response?.warnings?.map((w) => (
        <div key={w} className="replay-warning" role="status">{w}</div>
      ))}
      {latest?.response?.sessionFallback && (
        <div className="replay-warning" role="status" data-testid="replay-session-fallback" data-session={latest.response.sessionFallback.to}>
          {latest.response.sessionFallback.reason}
        </div>
      )}
      <ServerInputs api={replayApi} active={busy} />

      {replayed && (
        <section className="replay-result">
          <div className="replay-result-line" data-testid="replay-result" data-status={replayed.status} data-exchange-id={replayed.id}>
            Replay #{replayed.id} <span className={`status-${replayed.status}`}>{replayed.status}</span>
            {replayed.latencyMs !== undefined && ` in ${replayed.latencyMs.toFixed(1)} ms`}
            {latest?.response && ` · ${latest.response.mode === 'fresh' ? 'fresh session' : 'same session'} ${latest.response.sessionKey.slice(0, 12)} · id ${latest.response.sentId ?? '—'}`}
            <span className="replay-spacer" />
            <label>
              <input type="checkbox" data-testid="replay-ignore-volatile" checked={ignoreVolatile} onChange={(e) => setIgnoreVolatile(e.target.checked)} /> ignore volatile fields
            </label>
          </div>
          {original ? (
            <>
              <div className="replay-diff-labels"><span>Original #{original.exchange.id} ({original.exchange.status})</span><span>Replay #{replayed.id} ({replayed.status})</span></div>
              <div className="replay-diff" data-testid="replay-diff">
                <Suspense fallback={<div className="replay-loading">Loading diff…</div>}>
                  <ResponseDiff original={originalAnswer} modified={replayAnswer} />
                </Suspense>
              </div>
            </>
          ) : (
            <pre className="replay-answer" data-testid="replay-answer">{replayAnswer}</pre>
          )}
        </section>
      )}
    </div>
  );
}
