/**
 * The Drive panel's state: where messages go (mcpscope's own session, or a captured session
 * named by key), the lists the session's server gave, one send at a time, and its outcome — the
 * answer, or the violations the arguments carry (then "send anyway" repeats it with `anyway`).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DriveLists, ExchangeDetail, JsonObject } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useUi } from '../store/ui-store.js';
import { DriveApi, type DriveOutcome } from './drive-api.js';

export interface Pending {
  message: JsonObject;
  from?: string;
}

export interface DriveState {
  api: DriveApi;
  /** '' for mcpscope's own session, else a captured session's key. */
  target: string;
  setTarget(target: string): void;
  /** The session the lists come from and messages go to, once known. */
  sessionKey?: string;
  startOwn(renew?: boolean): Promise<void>;
  lists?: DriveLists;
  busy: boolean;
  outcome?: DriveOutcome;
  /** The refused message, for "send anyway". */
  refused?: Pending;
  detail?: ExchangeDetail;
  error?: string;
  /** Why nothing can be driven here, as the server says it (a capture opened read-only). */
  readOnly?: string;
  send(pending: Pending, anyway?: boolean): Promise<void>;
}

const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

export function useDrive(client: ApiClient, initialTarget: string): DriveState {
  const api = useMemo(() => new DriveApi(client), [client]);
  const [target, setTarget] = useState(initialTarget);
  const [ownKey, setOwnKey] = useState<string>();
  const [lists, setLists] = useState<DriveLists>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<DriveOutcome>();
  const [refused, setRefused] = useState<Pending>();
  const [detail, setDetail] = useState<ExchangeDetail>();
  const [error, setError] = useState<string>();
  const [readOnly, setReadOnly] = useState<string>();
  const sessionKey = target || ownKey;

  useEffect(() => {
    let live = true;
    api.unavailable().then((why) => live && setReadOnly(why), () => undefined);
    return () => {
      live = false;
    };
  }, [api]);

  const refresh = useCallback(async (key: string | undefined) => {
    if (!key) return setLists(undefined);
    setLists(await api.lists(key).catch(() => undefined));
  }, [api]);

  useEffect(() => void refresh(sessionKey), [refresh, sessionKey]);

  const startOwn = useCallback(async (renew = false) => {
    setBusy(true);
    setError(undefined);
    try {
      setOwnKey(await api.own(renew));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }, [api]);

  const send = useCallback(async (pending: Pending, anyway = false) => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await api.send({ message: pending.message, mode: target ? 'session' : 'fresh', ...(target ? { sessionKey: target } : {}), ...(pending.from ? { from: pending.from } : {}), anyway });
      setOutcome(result);
      setRefused(result.kind === 'refused' ? pending : undefined);
      const exchange = result.kind === 'sent' ? result.value.exchange : result.kind === 'failed' ? result.failure.exchange : undefined;
      setDetail(exchange ? await api.exchange(exchange.id) : undefined);
      if (exchange) useUi.getState().select(exchange.id, true);
      if (result.kind === 'sent') {
        if (!target) setOwnKey(result.value.sessionKey);
        if (LIST_METHODS.has(String(pending.message.method))) await refresh(result.value.sessionKey);
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }, [api, target, refresh]);

  return { api, target, setTarget, ...(sessionKey ? { sessionKey } : {}), startOwn, ...(lists ? { lists } : {}), busy, ...(outcome ? { outcome } : {}), ...(refused ? { refused } : {}), ...(detail ? { detail } : {}), ...(error ? { error } : {}), ...(readOnly ? { readOnly } : {}), send };
}
