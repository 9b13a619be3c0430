/**
 * The replay panel's state machine: load the original (whole, never the API's cut), hold the
 * edited text, the target (its session or a fresh one), one send at a time, and the latest
 * result or failure. Every send is a replay of the exchange the panel was opened on (its
 * `replayOf`), however many were sent before it; the diff compares with that original too.
 * The panel's pieces only render what this hook holds and call its actions.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ExchangeDetail, ReplayFailure, ReplayResponse } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { tooLargeHere } from '../api/whole-exchange.js';
import { prettyFrame } from '../ui/pretty-frame.js';
import { useUi } from '../store/ui-store.js';
import { requestFrame, requestRaw } from './exchange-text.js';
import { templateFor, type ToolInfo } from './message-schema.js';
import { ReplayApi } from './replay-api.js';

export type ReplayMode = 'session' | 'fresh';

export interface ReplayResult {
  response?: ReplayResponse;
  detail: ExchangeDetail;
}

export interface ReplayState {
  replayApi: ReplayApi;
  original?: ExchangeDetail;
  loadError?: string;
  text: string;
  setText(text: string): void;
  /** The composer's chosen session ('' = none); unused when editing a captured exchange. */
  composerSession: string;
  setComposerSession(sessionKey: string): void;
  /** The session a "session" replay goes into, if any. */
  sessionKey?: string;
  tools: ToolInfo[];
  mode: ReplayMode;
  setMode(mode: ReplayMode): void;
  busy: boolean;
  latest?: ReplayResult;
  failure?: ReplayFailure;
  curl?: string;
  withSecrets: boolean;
  setWithSecrets(on: boolean): void;
  send(mode?: ReplayMode): Promise<void>;
  stopWaiting(): void;
  copyCurl(): Promise<void>;
}

/** The original exchange, loaded whole for editing; a body past the whole-body limit is refused. */
function useOriginal(replayApi: ReplayApi, exchangeId: string | undefined, onText: (text: string) => void) {
  const [original, setOriginal] = useState<ExchangeDetail>();
  const [loadError, setLoadError] = useState<string>();
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
        onText(prettyFrame(requestRaw(detail)));
      })
      .catch((err: Error) => !abort.signal.aborted && setLoadError(err.message));
    return () => abort.abort();
  }, [replayApi, exchangeId, onText]);
  return { original, loadError };
}

/** The tools the session's server listed, for the tool picker and the editor's completions. */
export function useSessionTools(replayApi: ReplayApi, sessionKey: string | undefined): ToolInfo[] {
  const [tools, setTools] = useState<ToolInfo[]>([]);
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
  return tools;
}

export function useReplay(api: ApiClient, exchangeId: string | undefined, initialSession = ''): ReplayState {
  const replayApi = useMemo(() => new ReplayApi(api), [api]);
  const [text, setText] = useState(() => (exchangeId ? '' : templateFor('tools/list')));
  const { original, loadError } = useOriginal(replayApi, exchangeId, setText);
  const [composerSession, setComposerSession] = useState<string>(initialSession);
  const [mode, setMode] = useState<ReplayMode>(exchangeId || initialSession ? 'session' : 'fresh');
  const [busy, setBusy] = useState(false);
  const [latest, setLatest] = useState<ReplayResult>();
  const [failure, setFailure] = useState<ReplayFailure>();
  const [curl, setCurl] = useState<string>();
  const [withSecrets, setWithSecrets] = useState(false);
  const inFlight = useRef<AbortController | undefined>(undefined);

  const sessionKey = original?.exchange.sessionKey ?? (composerSession || undefined);
  const tools = useSessionTools(replayApi, sessionKey);

  useEffect(() => () => inFlight.current?.abort(), []);

  const send = useCallback(
    async (sendMode: ReplayMode = mode) => {
      if (busy) return;
      const abort = new AbortController();
      inFlight.current = abort;
      setBusy(true);
      setFailure(undefined);
      const baseId = exchangeId || undefined;
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
    [busy, mode, exchangeId, replayApi, sessionKey, text],
  );

  const copyCurl = useCallback(async () => {
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
  }, [latest, exchangeId, sessionKey, replayApi, text, withSecrets]);

  return {
    replayApi, original, loadError, text, setText, composerSession, setComposerSession, sessionKey, tools, mode, setMode,
    busy, latest, failure, curl, withSecrets, setWithSecrets, send, stopWaiting: () => inFlight.current?.abort(), copyCurl,
  };
}
