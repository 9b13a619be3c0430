/** The widget preview API as the dashboard calls it (contract: @mcpscope/protocol widget-api). */
import type { ApiError, WidgetCallRequest, WidgetCallResponse, WidgetConsent, WidgetDeclaration, WidgetPreview } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

export class WidgetApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export class WidgetApi {
  constructor(private readonly api: ApiClient) {}

  private async send<T>(path: string, init: RequestInit = {}): Promise<T> {
    const headers: Record<string, string> = init.body ? { 'content-type': 'application/json' } : {};
    const res = await this.api.raw(path, { ...init, headers });
    const text = await res.text();
    const body = (text ? JSON.parse(text) : undefined) as T | ApiError | undefined;
    if (!res.ok) {
      const error = (body as ApiError | undefined)?.error;
      throw new WidgetApiError(res.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${res.status}`);
    }
    return body as T;
  }

  /** Whether the call's tool declares a widget (cheap: no resource is read). */
  declaration(exchangeId: string, signal?: AbortSignal): Promise<{ toolName: string; declaration?: WidgetDeclaration }> {
    return this.send(`/api/widget/${encodeURIComponent(exchangeId)}/declaration`, signal ? { signal } : {});
  }

  preview(exchangeId: string, signal?: AbortSignal): Promise<WidgetPreview> {
    return this.send(`/api/widget/${encodeURIComponent(exchangeId)}`, signal ? { signal } : {});
  }

  readNow(exchangeId: string, signal?: AbortSignal): Promise<WidgetPreview> {
    return this.send(`/api/widget/${encodeURIComponent(exchangeId)}/read`, { method: 'POST', body: '{}', ...(signal ? { signal } : {}) });
  }

  call(exchangeId: string, request: WidgetCallRequest): Promise<WidgetCallResponse> {
    return this.send(`/api/widget/${encodeURIComponent(exchangeId)}/call`, { method: 'POST', body: JSON.stringify(request) });
  }

  /** The user's Allow (only ever from the dashboard's own consent prompt, never from the widget). */
  consent(exchangeId: string, tool: string): Promise<WidgetConsent> {
    return this.send(`/api/widget/${encodeURIComponent(exchangeId)}/consent`, { method: 'POST', body: JSON.stringify({ tool }) });
  }
}
