/** Typed calls to the dashboard API (same origin; the token goes in the Authorization header). */
import type { ExchangeDetail, ExchangesPage, FramesPage, SessionsPage } from '@mcpscope/protocol';

export class ApiClient {
  constructor(private readonly token: string) {}

  /** A raw authorised request, for downloads and uploads that are not JSON pages. */
  request(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${this.token}` } });
  }

  private async get<T>(path: string, signal?: AbortSignal): Promise<T> {
    const res = await fetch(path, { headers: { authorization: `Bearer ${this.token}` }, signal: signal ?? null });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new Error(body?.error?.message ?? `${res.status} ${res.statusText}`);
    }
    return (await res.json()) as T;
  }

  exchanges(limit = 200_000, signal?: AbortSignal): Promise<ExchangesPage> {
    return this.get(`/api/exchanges?limit=${limit}`, signal);
  }

  exchange(id: string, signal?: AbortSignal): Promise<ExchangeDetail> {
    return this.get(`/api/exchanges/${encodeURIComponent(id)}`, signal);
  }

  frames(after: number, limit = 1000): Promise<FramesPage> {
    return this.get(`/api/frames?after=${after}&limit=${limit}`);
  }

  sessions(): Promise<SessionsPage> {
    return this.get('/api/sessions');
  }

  socketUrl(after: number): string {
    const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${window.location.host}/ws?token=${encodeURIComponent(this.token)}&after=${after}`;
  }
}
