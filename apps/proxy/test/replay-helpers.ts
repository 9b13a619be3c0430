/** Shared by the replay tests: calling the dashboard API with the token, and watching upstream calls. */
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { upstreamRequest, type UpstreamRequest } from '../src/upstream/upstream-request.js';

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

/** The tap's real upstream client, noting what each call carried (a fake only in what it remembers). */
export function watchingRequest(): { request: UpstreamRequest; calls: SeenCall[] } {
  const calls: SeenCall[] = [];
  const request: UpstreamRequest = (url, init) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(init.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    calls.push({ url, method: init.method, headers, ...(init.body ? { body: init.body.toString('utf8') } : {}) });
    return upstreamRequest(url, init);
  };
  return { request, calls };
}
