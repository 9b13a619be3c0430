/**
 * "Copy as curl" for one exchange's request, for the detail pane. The command comes from the
 * server's curl export, redacted: credentials become shell variables ($MCP_AUTHORIZATION) the
 * user sets, never the captured value.
 */
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';

export function CopyAsCurl({ api, exchangeId }: { api: ApiClient; exchangeId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | string>('idle');
  const copy = async () => {
    try {
      const res = await api.raw(`/api/export?format=curl&exchange=${encodeURIComponent(exchangeId)}`);
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `${res.status}`);
      }
      await navigator.clipboard.writeText(await res.text());
      setState('copied');
    } catch (err) {
      setState(`Could not copy: ${(err as Error).message}`);
    }
  };
  return (
    <span className="copy-as-curl">
      <button type="button" data-testid="copy-as-curl" onClick={() => void copy()}>Copy as curl</button>
      {state !== 'idle' && <span className="hint" role="status">{state === 'copied' ? 'Copied' : state}</span>}
    </span>
  );
}
