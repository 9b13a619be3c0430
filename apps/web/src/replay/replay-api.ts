/**
 * The replay routes as the dashboard calls them, through the one ApiClient (its token, its
 * ApiError). A replay's refusal is an answer the panel shows (ReplayOutcome); the other routes
 * throw the API's error.
 */
import type {
  CurlRequest,
  CurlResponse,
  ExchangeDetail,
  JsonObject,
  ReplayFailure,
  ReplayInput,
  ReplayInputAnswer,
  ReplayInputsResponse,
  ReplayRequest,
  ReplayResponse,
  ReplayToolsResponse,
} from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { wholeExchange } from '../api/whole-exchange.js';

export type ReplayOutcome = { ok: true; value: ReplayResponse } | { ok: false; failure: ReplayFailure };

const post = (body: unknown, signal?: AbortSignal): RequestInit => ({ method: 'POST', body: JSON.stringify(body), ...(signal ? { signal } : {}) });

export class ReplayApi {
  constructor(private readonly api: ApiClient) {}

  /** With whole bodies: the editor must hold the message itself, never the API's 1 MiB cut. */
  exchange(id: string, signal?: AbortSignal): Promise<ExchangeDetail> {
    return wholeExchange(this.api, id, signal);
  }

  async replay(request: ReplayRequest, signal?: AbortSignal): Promise<ReplayOutcome> {
    const res = await this.api.answer<ReplayResponse | ReplayFailure>('/api/replay', post(request, signal));
    return res.status === 200 ? { ok: true, value: res.body as ReplayResponse } : { ok: false, failure: res.body as ReplayFailure };
  }

  async curl(request: CurlRequest): Promise<string> {
    return (await this.api.request<CurlResponse>('/api/replay/curl', post(request))).command;
  }

  async tools(sessionKey: string): Promise<JsonObject[]> {
    return (await this.api.request<ReplayToolsResponse>(`/api/replay/tools?session=${encodeURIComponent(sessionKey)}`)).tools;
  }

  async inputs(): Promise<ReplayInput[]> {
    return (await this.api.request<ReplayInputsResponse>('/api/replay/inputs')).inputs;
  }

  async answer(key: string, answer: ReplayInputAnswer): Promise<void> {
    await this.api.request(`/api/replay/inputs/${encodeURIComponent(key)}`, post(answer));
  }
}
