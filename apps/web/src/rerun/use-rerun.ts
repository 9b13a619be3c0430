/**
 * Runs a re-run: each call replayed in a fresh session through the replay API (so every replay
 * is captured and linked to its original, as a replay from the editor is), one after the
 * other in capture order, each compared with its original as soon as it is back. Stoppable;
 * a call that cannot be replayed says why in its row and the run goes on.
 */
import { useCallback, useRef, useState } from 'react';
import type { Comparison, ExchangeDetail, ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { requestRaw } from '../replay/exchange-text.js';
import type { ReplayApi } from '../replay/replay-api.js';
import { compareRerun } from './rerun-plan.js';

export interface RerunRow {
  id: string;
  original: ExchangeSummary;
  state: 'waiting' | 'running' | 'done' | 'error';
  replay?: ExchangeSummary;
  comparison?: Comparison;
  error?: string;
  /** Kept for the row's diff. */
  originalDetail?: ExchangeDetail;
  replayDetail?: ExchangeDetail;
}

export function useRerun(api: ApiClient, replayApi: ReplayApi) {
  const [rows, setRows] = useState<RerunRow[]>([]);
  const [running, setRunning] = useState(false);
  const stopRef = useRef<AbortController | undefined>(undefined);

  const update = (id: string, patch: Partial<RerunRow>) => setRows((all) => all.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const start = useCallback(
    async (originals: ExchangeSummary[]) => {
      const stop = new AbortController();
      stopRef.current = stop;
      setRunning(true);
      setRows(originals.map((original) => ({ id: original.id, original, state: 'waiting' })));
      for (const original of originals) {
        if (stop.signal.aborted) break;
        update(original.id, { state: 'running' });
        try {
          update(original.id, await rerunOne(api, replayApi, original, stop.signal));
        } catch (err) {
          if (stop.signal.aborted) break;
          update(original.id, { state: 'error', error: (err as Error).message });
        }
      }
      setRows((all) => all.map((r) => (r.state === 'waiting' || r.state === 'running' ? { ...r, state: 'error', error: 'stopped before it ran' } : r)));
      stopRef.current = undefined;
      setRunning(false);
    },
    [api, replayApi],
  );

  return { rows, running, start, stop: () => stopRef.current?.abort() };
}

async function rerunOne(api: ApiClient, replayApi: ReplayApi, original: ExchangeSummary, signal: AbortSignal): Promise<Partial<RerunRow>> {
  const originalDetail = await api.exchange(original.id, signal);
  const seq = originalDetail.exchange.requestSeq;
  const frame = originalDetail.frames.find((f) => f.seq === seq);
  // The detail cuts bodies at 1 MiB: a large request is sent whole, from its raw frame.
  const message = frame?.truncated && seq !== undefined ? await api.rawFrame(seq, signal) : requestRaw(originalDetail);
  const outcome = await replayApi.replay({ exchangeId: original.id, message, mode: 'fresh' }, signal);
  const replay = outcome.ok ? outcome.value.exchange : outcome.failure.exchange;
  if (!replay) return { state: 'error', originalDetail, error: outcome.ok ? 'the replay was not captured' : outcome.failure.error.message };
  const replayDetail = await api.exchange(replay.id, signal);
  const comparison = compareRerun(originalDetail, replayDetail);
  return {
    state: 'done',
    replay: replayDetail.exchange,
    originalDetail,
    replayDetail,
    ...(comparison ? { comparison } : {}),
    ...(!outcome.ok ? { error: outcome.failure.error.message } : {}),
  };
}
