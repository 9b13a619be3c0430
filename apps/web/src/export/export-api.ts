/**
 * The export and import API as the dashboard calls it. The response shapes (ExportPreview,
 * ImportReport) are the shared contract in @mcpscope/protocol, the same types the proxy answers with.
 */
import type { ExportPreview, ImportReport, ImportResponse, RegressionTestPlan } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { saveFile } from '../ui/save-file.js';

export type ExportFormat = 'jsonl' | 'har';

export interface ExportParams {
  format: ExportFormat;
  filter?: string;
  session?: string;
  /** Extra keys or `$.json.paths` to redact. */
  redact: string[];
  unredacted: boolean;
}

export function exportQuery(params: ExportParams): string {
  const q = new URLSearchParams({ format: params.format });
  if (params.filter) q.set('filter', params.filter);
  if (params.session) q.set('session', params.session);
  for (const r of params.redact) q.append('redact', r);
  if (params.unredacted) q.set('unredacted', '1');
  return q.toString();
}

async function errorOf(res: Response): Promise<Error> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return new Error(body?.error?.message ?? `${res.status} ${res.statusText}`);
}

export async function fetchPreview(api: ApiClient, params: ExportParams, signal?: AbortSignal): Promise<ExportPreview> {
  const res = await api.raw(`/api/export/preview?${exportQuery(params)}`, signal ? { signal } : {});
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as ExportPreview;
}

/** Fetches the export with the token (never in the URL) and hands it to the browser as a file. */
export async function downloadExport(api: ApiClient, params: ExportParams): Promise<string> {
  const res = await api.raw(`/api/export?${exportQuery(params)}`);
  if (!res.ok) throw await errorOf(res);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `mcpscope.${params.format}`;
  saveFile(await res.blob(), name);
  return name;
}

export async function importFile(api: ApiClient, file: File): Promise<ImportReport> {
  const res = await api.raw(`/api/import?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file });
  if (!res.ok) throw await errorOf(res);
  return ((await res.json()) as ImportResponse).report;
}

/** What "Save as regression test" saves: a filter's calls, a conversation's, or one exchange. */
export type RegressionScope = { filter: string } | { conversation: string } | { exchange: string };

const scopeQuery = (scope: RegressionScope) => new URLSearchParams(scope as Record<string, string>).toString();

export function fetchRegressionPlan(api: ApiClient, scope: RegressionScope, signal?: AbortSignal): Promise<RegressionTestPlan> {
  return api.request(`/api/regression-test?${scopeQuery(scope)}`, signal ? { signal } : {});
}

/** Downloads the golden capture (JSONL, redacted) the plan describes. */
export async function downloadGolden(api: ApiClient, scope: RegressionScope, name: string): Promise<void> {
  const res = await api.raw(`/api/regression-test/golden?${scopeQuery(scope)}`);
  if (!res.ok) throw await errorOf(res);
  saveFile(await res.blob(), name);
}
