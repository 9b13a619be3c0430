/**
 * The causal links of the open exchange (see @mcpscope/protocol's causality.ts for the rule): a
 * server→client request's call, or a call's server→client requests. Candidates come from the
 * index; whether a request rode on a call's POST stream is in the frames' HTTP link, so the
 * candidates' details are fetched (only when it can change the answer, at most CANDIDATE_CAP).
 */
import { useEffect, useState } from 'react';
import { callsBehind, isServerToClientRequest, isToolCall, requestsDuring, type CausalBasis, type ExchangeDetail, type ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { requestFrame } from '../replay/exchange-text.js';
import { useLive } from '../store/live-store.js';
import { candidateCalls, candidateRequests, summarySpan } from './causal-candidates.js';

export interface CausalView {
  /** `caused-by`: the open exchange is a server's request; `caused`: it is a call. */
  role: 'caused-by' | 'caused';
  links: { ex: ExchangeSummary; basis: CausalBasis }[];
  /** The open request rode on a POST's answer stream (its link, if any, is exact). */
  onPostStream: boolean;
}

const via = (detail: ExchangeDetail) => {
  const http = requestFrame(detail)?.http;
  return http ? { method: http.method, ...(http.connectionId !== undefined ? { connectionId: http.connectionId } : {}) } : undefined;
};

const callSpan = (detail: ExchangeDetail) => {
  const connectionId = requestFrame(detail)?.http?.connectionId;
  return { ...summarySpan(detail.exchange), ...(connectionId !== undefined ? { connectionId } : {}) };
};

async function linksOf(api: ApiClient, detail: ExchangeDetail, signal: AbortSignal): Promise<CausalView | undefined> {
  const ex = detail.exchange;
  const { index } = useLive.getState();
  const byId = (id: string) => index.get(id)!;
  if (isServerToClientRequest(ex)) {
    const request = { ...summarySpan(ex), ...(via(detail) ? { via: via(detail)! } : {}) };
    const onPostStream = request.via?.method === 'POST' && request.via.connectionId !== undefined;
    const candidates = candidateCalls(index, ex);
    // Off a POST stream only time can tell, and the summaries say it: no fetch.
    const calls = onPostStream ? await Promise.all(candidates.map(async (c) => callSpan(await api.exchange(c.id, signal)))) : candidates.map(summarySpan);
    return { role: 'caused-by', onPostStream, links: callsBehind(request, calls).map((l) => ({ ex: byId(l.id), basis: l.basis })) };
  }
  if (isToolCall(ex)) {
    const candidates = candidateRequests(index, ex);
    const requests = await Promise.all(candidates.map(async (r) => {
      const d = await api.exchange(r.id, signal);
      return { ...summarySpan(r), ...(via(d) ? { via: via(d)! } : {}) };
    }));
    const call = callSpan(detail);
    return { role: 'caused', onPostStream: false, links: requestsDuring(call, requests, [call]).map((l) => ({ ex: byId(l.id), basis: l.basis })) };
  }
  return undefined;
}

export function useCausalLinks(api: ApiClient, detail: ExchangeDetail): CausalView | undefined {
  const [view, setView] = useState<CausalView | undefined>();
  useEffect(() => {
    const abort = new AbortController();
    setView(undefined);
    linksOf(api, detail, abort.signal).then(
      (v) => abort.signal.aborted || setView(v),
      () => undefined, // a failed look-up leaves the links out; the detail itself still shows
    );
    return () => abort.abort();
  }, [api, detail]);
  return view;
}
