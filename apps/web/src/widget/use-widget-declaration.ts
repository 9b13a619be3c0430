/**
 * Whether a tools/call's tool declares a widget (so the detail pane offers a Widget tab): asked of
 * the proxy, which looks the tool up across the capture's tools/list answers.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ExchangeSummary, WidgetDeclaration } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { WidgetApi } from './widget-api.js';

export function useWidgetDeclaration(api: ApiClient, ex: ExchangeSummary | undefined): WidgetDeclaration | undefined {
  const widgetApi = useMemo(() => new WidgetApi(api), [api]);
  const [found, setFound] = useState<{ id: string; declaration: WidgetDeclaration } | undefined>();
  const id = ex?.method === 'tools/call' && ex.requester === 'client' ? ex.id : undefined;
  useEffect(() => {
    if (id === undefined) return;
    const abort = new AbortController();
    widgetApi
      .declaration(id, abort.signal)
      .then((d) => setFound(d.declaration ? { id, declaration: d.declaration } : undefined))
      .catch(() => !abort.signal.aborted && setFound(undefined));
    return () => abort.abort();
  }, [widgetApi, id]);
  return found && found.id === id ? found.declaration : undefined;
}
