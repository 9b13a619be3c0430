/** Shared by the replay tests: watching upstream calls (the dashboard API: support/api.ts). */
export { api } from './support/api.js';
import { upstreamRequest, type UpstreamRequest } from '../src/upstream/upstream-request.js';

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
