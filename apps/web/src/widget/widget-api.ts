/**
 * The widget preview routes as the dashboard calls them (contract: @mcpscope/protocol widget-api),
 * through the one ApiClient: its token, and its ApiError with the API's code
 * (`widget_consent_needed`, `imported_session`, …) for the bridge to tell refusals apart.
 */
import type { WidgetCallRequest, WidgetCallResponse, WidgetConsent, WidgetDeclaration, WidgetPreview } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

const route = (exchangeId: string, tail = '') => `/api/widget/${encodeURIComponent(exchangeId)}${tail}`;

export class WidgetApi {
  constructor(private readonly api: ApiClient) {}

  /** Whether the call's tool declares a widget (cheap: no resource is read). */
  declaration(exchangeId: string, signal?: AbortSignal): Promise<{ toolName: string; declaration?: WidgetDeclaration }> {
    return this.api.request(route(exchangeId, '/declaration'), signal ? { signal } : {});
  }

  preview(exchangeId: string, signal?: AbortSignal): Promise<WidgetPreview> {
    return this.api.request(route(exchangeId), signal ? { signal } : {});
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
