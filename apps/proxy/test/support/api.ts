/**
 * Calling a running mcpscope's dashboard API with its token, the one way tests do it:
 * `apiFetch` for the raw Response (exports, headers, streams), `api` for a JSON answer with its
 * status (a body given is POSTed as JSON), `apiGet` when anything but 200 is a test failure.
 */
export interface ApiTarget {
  dashboardUrl: string;
  token: string;
}

export function apiFetch(app: ApiTarget, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(app.dashboardUrl + path, { ...init, headers: { authorization: `Bearer ${app.token}`, ...(init.headers as Record<string, string> | undefined) } });
}

export async function api<T = unknown>(app: ApiTarget, path: string, body?: unknown, token = app.token): Promise<{ status: number; body: T }> {
  const res = await apiFetch({ ...app, token }, path, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function apiGet<T>(app: ApiTarget, path: string): Promise<T> {
  const res = await apiFetch(app, path);
  if (!res.ok) throw new Error(`GET ${path} → ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
