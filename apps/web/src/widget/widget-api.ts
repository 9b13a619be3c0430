/**
 * The widget preview routes as the dashboard calls them (contract: @mcpscope/protocol widget-api),
 * through the one ApiClient: its token, and its ApiError with the API's code
 * (`widget_consent_needed`, `imported_session`, …) for the bridge to tell refusals apart.
 */
import type { WidgetCallRequest, WidgetCallResponse, WidgetCapturedResult, WidgetConsent, WidgetDeclaration, WidgetFileEvent, WidgetFileState, WidgetPreview } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

const route = (exchangeId: string, tail = '') => `/api/widget/${encodeURIComponent(exchangeId)}${tail}`;

export class WidgetApi {
  constructor(private readonly api: ApiClient) {}

  /** Whether the call's tool declares a widget (cheap: no resource is read). */
  declaration(exchangeId: string, signal?: AbortSignal): Promise<{ toolName: string; declaration?: WidgetDeclaration }> {
    return this.api.request(route(exchangeId, '/declaration'), signal ? { signal } : {});
  }

  /** `resource`: the HTML of that resources/read (one `readNow` made) rather than the capture's choice. */
  preview(exchangeId: string, signal?: AbortSignal, resource?: string): Promise<WidgetPreview> {
    return this.api.request(route(exchangeId, resource ? `?resource=${encodeURIComponent(resource)}` : ''), signal ? { signal } : {});
  }

  /** Other captured calls of the same tool, newest first. */
  results(exchangeId: string, signal?: AbortSignal): Promise<WidgetCapturedResult[]> {
    return this.api.request(route(exchangeId, '/results'), signal ? { signal } : {});
  }

  /** The user names a local .html file for the call's widget (read-only, watched by the proxy). */
  useFile(exchangeId: string, path: string): Promise<WidgetFileState> {
    return this.api.request(route(exchangeId, '/file'), { method: 'PUT', body: JSON.stringify({ path }) });
  }

  stopFile(exchangeId: string): Promise<{ stopped: boolean }> {
    return this.api.request(route(exchangeId, '/file'), { method: 'DELETE' });
  }

  /** Calls `onEvent` for each local widget file change until `signal` aborts (NDJSON from the proxy). */
  async fileEvents(onEvent: (event: WidgetFileEvent) => void, signal: AbortSignal): Promise<void> {
    const res = await this.api.raw('/api/widget-files/events', { signal });
    if (!res.ok || !res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line) onEvent(JSON.parse(line) as WidgetFileEvent);
      }
    }
  }

  readNow(exchangeId: string, signal?: AbortSignal): Promise<WidgetPreview> {
    return this.api.request(route(exchangeId, '/read'), { method: 'POST', body: '{}', ...(signal ? { signal } : {}) });
  }

  call(exchangeId: string, request: WidgetCallRequest): Promise<WidgetCallResponse> {
    return this.api.request(route(exchangeId, '/call'), { method: 'POST', body: JSON.stringify(request) });
  }

  /** The user's Allow (only ever from the dashboard's own consent prompt, never from the widget). */
  consent(exchangeId: string, tool: string): Promise<WidgetConsent> {
    return this.api.request(route(exchangeId, '/consent'), { method: 'POST', body: JSON.stringify({ tool }) });
  }
}
