/**
 * The replay API as the dashboard calls it. Reads go through the shared ApiClient; the replay
 * routes are POSTs with the same per-launch token (kept in sessionStorage by api/token.ts).
 */
import type {
  ApiError,
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
import { takeToken } from '../api/token.js';
import { wholeExchange } from '../api/whole-exchange.js';

export type ReplayOutcome = { ok: true; value: ReplayResponse } | { ok: false; failure: ReplayFailure };

export class ReplayApi {
  constructor(private readonly api: ApiClient, private readonly token: string | null = takeToken()) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token ?? ''}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), signal: signal ?? null });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  private async ok<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await this.call<T | ApiError>(method, path, body);
    if (res.status >= 400) throw new Error((res.body as ApiError | undefined)?.error?.message ?? `HTTP ${res.status}`);
    return res.body as T;
  }

  /** With whole bodies: the editor must hold the message itself, never the API's 1 MiB cut. */
  exchange(id: string, signal?: AbortSignal): Promise<ExchangeDetail> {
    return wholeExchange(this.api, id, signal);
  }

  async replay(request: ReplayRequest, signal?: AbortSignal): Promise<ReplayOutcome> {
    const res = await this.call<ReplayResponse | ReplayFailure>('POST', '/api/replay', request, signal);
    return res.status === 200 ? { ok: true, value: res.body as ReplayResponse } : { ok: false, failure: res.body as ReplayFailure };
  }

  async curl(request: CurlRequest): Promise<string> {
    return (await this.ok<CurlResponse>('POST', '/api/replay/curl', request)).command;
  }

  async tools(sessionKey: string): Promise<JsonObject[]> {
    return (await this.ok<ReplayToolsResponse>('GET', `/api/replay/tools?session=${encodeURIComponent(sessionKey)}`)).tools;
  }

  async inputs(): Promise<ReplayInput[]> {
    return (await this.ok<ReplayInputsResponse>('GET', '/api/replay/inputs')).inputs;
  }

  async answer(key: string, answer: ReplayInputAnswer): Promise<void> {
    await this.ok('POST', `/api/replay/inputs/${encodeURIComponent(key)}`, answer);
  }
}
