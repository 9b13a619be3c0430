/**
 * The export and import API, mounted under the dashboard's token-checked `/api`:
 * - `GET /export?format=jsonl|har|curl&filter=EXPR&session=KEY&exchange=ID&redact=K&unredacted=1`
 *   downloads the file (redacted unless `unredacted=1`);
 * - `GET /export/preview?…same…` says what the export holds and what it will redact;
 * - `GET /regression-test?filter=EXPR|conversation=KEY|exchange=ID` → RegressionTestPlan, and
 *   `GET /regression-test/golden?…same…` the golden capture (JSONL, redacted) it describes;
 * - `POST /import?name=FILE` takes a JSONL or HAR file as the body and adds it as imported,
 *   read-only sessions.
 * Failures are InspectorErrors, answered by the API's one error handler.
 */
import { Hono, type Context } from 'hono';
import { InspectorError } from '../../core/errors.js';
import type { ImportResponse, RegressionTestPlan } from '@mcpscope/protocol';
import type { CaptureReader } from '../../capture/capture-reader.js';
import { buildExport, previewExport, EXPORT_FORMATS, type ExportFormat, type ExportOutput, type ExportRequest } from '../../interchange/export-service.js';
import { goldenSelection, regressionPlan, scopeOf } from '../../interchange/regression-test.js';
import { streamImport, type ImportTarget } from '../../interchange/import-stream.js';

export interface ExportRouteDeps {
  source: CaptureReader;
  /** Starts an import through the capture pipeline (the same derivation live capture uses), a chunk at a time; absent over a file shown read-only. */
  startImport?: () => ImportTarget;
  /** The live server this capture goes to (a URL), the regression test snippet's default target. */
  upstream?: string;
  /** MAX_IMPORT_BYTES unless a test sets less. */
  maxImportBytes?: number;
}

/**
 * Larger files are refused: a HAR file is one JSON document, held whole to parse (V8 caps one
 * string near 512 MiB); JSONL streams, but a dashboard import still has a bound. A body that
 * announces a larger `Content-Length` is refused before it is read; one without (chunked) is
 * counted as it arrives and refused once it passes the cap (what was stored by then stays).
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** The request body's chunks (none when it has no body). */
async function* bodyOf(req: Request): AsyncGenerator<Uint8Array> {
  const reader = req.body?.getReader();
  if (!reader) return;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function exportRequest(c: Context): ExportRequest {
  const format = (c.req.query('format') ?? 'jsonl') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new InspectorError('bad_param', `format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const req: ExportRequest = { format, redact: c.req.queries('redact') ?? [], unredacted: ['1', 'true', 'yes'].includes(c.req.query('unredacted') ?? '') };
  const filter = c.req.query('filter');
  const session = c.req.query('session');
  const exchange = c.req.query('exchange');
  if (filter) req.filter = filter;
  if (session) req.session = session;
  if (exchange) req.exchange = exchange;
  return req;
}

/** The export as a download, pulled as the client reads: each pull writes about 64 KiB, so a large export streams. */
function exportResponse(out: ExportOutput, filename = out.filename): Response {
  const iterator = out.chunks[Symbol.iterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = '';
      while (text.length < 64 * 1024) {
        const next = iterator.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
  return new Response(body, {
    headers: {
      'content-type': out.contentType,
      'content-disposition': `attachment; filename="${filename}"`,
      'x-mcpscope-redacted': out.redactor.options.enabled ? 'yes' : 'no',
      'cache-control': 'no-store',
    },
  });
}

export function exportRoutes(deps: ExportRouteDeps): Hono {
  const app = new Hono();

  app.get('/export/preview', (c) => {
    const preview = previewExport(deps.source, exportRequest(c));
    if ('ok' in preview) throw new InspectorError(preview.code, preview.message);
    return c.json(preview);
  });

  app.get('/export', (c) => {
    const out = buildExport(deps.source, exportRequest(c));
    if (!out.ok) throw new InspectorError(out.code, out.message);
    return exportResponse(out);
  });

  app.get('/regression-test', (c) => c.json<RegressionTestPlan>(regressionPlan({ source: deps.source, ...(deps.upstream ? { target: deps.upstream } : {}) }, scopeOf((k) => c.req.query(k)))));

  app.get('/regression-test/golden', (c) => {
    const selection = goldenSelection(deps.source, scopeOf((k) => c.req.query(k)));
    const out = buildExport(deps.source, { format: 'jsonl', exchanges: selection.exchangeIds });
    if (!out.ok) throw new InspectorError(out.code, out.message);
    return exportResponse(out, 'golden.jsonl');
  });

  app.post('/import', async (c) => {
    const startImport = deps.startImport;
    if (!startImport) throw new InspectorError('read_only', 'This dashboard shows a file read-only (mcpscope open): an import would write to it. Import into a running mcpscope instead (its dashboard, or POST /api/import there).');
    const max = deps.maxImportBytes ?? MAX_IMPORT_BYTES;
    const announced = Number(c.req.header('content-length') ?? 0);
    if (announced > max) throw new InspectorError('import_too_large', `the file is ${announced} bytes; mcpscope imports up to ${max}`);
    const report = await streamImport(bodyOf(c.req.raw), c.req.query('name') ?? 'upload', max, startImport);
    return c.json<ImportResponse>({ report });
  });

  return app;
}
