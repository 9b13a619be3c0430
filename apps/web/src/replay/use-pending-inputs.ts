/**
 * The server requests waiting for the dashboard user (GET /api/replay/inputs), polled while
 * `active`, with the clock their countdowns read. Shared by the replay panel and the Drive panel.
 */
import { useEffect, useState } from 'react';
import type { ReplayInput } from '@mcpscope/protocol';
import type { ReplayApi } from './replay-api.js';

export function usePendingInputs(api: ReplayApi, active: boolean) {
  const [inputs, setInputs] = useState<ReplayInput[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) {
      setInputs([]);
      return;
    }
    let stopped = false;
    const poll = async () => {
      try {
        const list = await api.inputs();
        if (!stopped) setInputs(list);
      } catch (err) {
        if (!stopped) setError((err as Error).message);
      }
      if (!stopped) {
        setNow(Date.now());
        timer = setTimeout(poll, 400);
      }
    };
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, active]);
  return { inputs, setInputs, error, setError, now };
}
