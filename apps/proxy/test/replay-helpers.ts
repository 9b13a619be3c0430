/** Shared by the replay tests: calling the dashboard API with the token, and watching upstream calls. */
import type { Mcpscope } from '../src/server.js';
import { upstreamFetch, type UpstreamFetch } from '../src/replay/upstream-fetch.js';

export async function api<T = unknown>(app: Mcpscope, path: string, body?: unknown, token = app.token): Promise<{ status: number; body: T }> {
  const res = await fetch(app.dashboardUrl + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export interface SeenCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The real upstream fetch, noting what each call carried (a fake only in what it remembers). */
export function watchingFetch(): { fetch: UpstreamFetch; calls: SeenCall[] } {
  const calls: SeenCall[] = [];
  const fetch: UpstreamFetch = (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    calls.push({ url: input, method: init.method ?? 'GET', headers, ...(typeof init.body === 'string' ? { body: init.body } : init.body instanceof Uint8Array ? { body: new TextDecoder().decode(init.body) } : {}) });
    return upstreamFetch(input, init);
  };
  return { fetch, calls };
}
