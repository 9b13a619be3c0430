/**
 * `mcpscope export`: writes a capture file's traffic as JSONL, HAR or curl to a file or stdout,
 * redacted unless the user opts out. Parsing is pure (argv in, options or a usage message out).
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { CaptureReader } from '../capture/capture-reader.js';
import { buildExport, EXPORT_FORMATS, type ExportFormat, type ExportRequest } from '../interchange/export-service.js';
import { BUILT_IN_RULES } from '../redaction/export-redaction.js';
import type { CliIo } from './cli-io.js';

export const EXPORT_USAGE = `Usage:
  mcpscope export --db FILE --format har|jsonl|curl [options]

Options:
  --db FILE           the capture database to read (read-only; a running mcpscope may keep writing)
  --format F          jsonl (lossless, re-importable), har (HAR 1.2 for DevTools), curl (one request)
  --out FILE          write here instead of stdout
  --filter EXPR       only exchanges matching the dashboard's filter language
  --session KEY       only this session
  --exchange ID       only this exchange (required for curl)
  --redact K|$.PATH   also redact this JSON key or JSON path (repeatable)
  --unredacted        export secrets as captured (off by default)

Redacted by default:
${BUILT_IN_RULES.map((r) => `  - ${r}`).join('\n')}
`;

export type ExportCli = { kind: 'export'; db: string; out?: string; request: ExportRequest } | { kind: 'usage'; message: string };

export function parseExportArgs(argv: string[]): ExportCli {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        db: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string', short: 'o' },
        filter: { type: 'string' },
        session: { type: 'string' },
        exchange: { type: 'string' },
        redact: { type: 'string', multiple: true },
        unredacted: { type: 'boolean' },
      },
    }));
  } catch (err) {
    return { kind: 'usage', message: (err as Error).message };
  }
  if (!values.db) return { kind: 'usage', message: 'export needs --db FILE' };
  const format = (values.format ?? 'jsonl') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) return { kind: 'usage', message: `--format must be one of ${EXPORT_FORMATS.join(', ')}` };
  if (values.db === ':memory:') return { kind: 'usage', message: 'an in-memory capture cannot be exported from another process; use the dashboard or GET /api/export' };
  const request: ExportRequest = { format, redact: values.redact ?? [], unredacted: values.unredacted ?? false };
  if (values.filter) request.filter = values.filter;
  if (values.session) request.session = values.session;
  if (values.exchange) request.exchange = values.exchange;
  return { kind: 'export', db: values.db, ...(values.out ? { out: values.out } : {}), request };
}

/** Runs `mcpscope export`; returns the exit code. */
export async function runExport(argv: string[], io: CliIo): Promise<number> {
  const cli = parseExportArgs(argv);
  if (cli.kind === 'usage') {
    io.stderr.write(`mcpscope export: ${cli.message}\n\n${EXPORT_USAGE}`);
    return 2;
  }
  let source: CaptureReader;
  try {
    source = CaptureReader.openFile(cli.db);
  } catch (err) {
    io.stderr.write(`mcpscope export: cannot open ${cli.db}: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const out = buildExport(source, cli.request);
    if (!out.ok) {
      io.stderr.write(`mcpscope export: ${out.message}\n`);
      return out.code === 'not_found' ? 1 : 2;
    }
    const sink = cli.out ? createWriteStream(cli.out) : io.stdout;
    for (const chunk of out.chunks) if (!sink.write(chunk)) await once(sink, 'drain');
    if (cli.out) {
      sink.end();
      await once(sink, 'finish');
    }
    const report = out.redactor.report();
    if (!report.enabled) io.stderr.write('mcpscope export: UNREDACTED export: it may contain tokens, cookies and secrets.\n');
    else if (report.hits.length > 0) io.stderr.write(`mcpscope export: redacted ${report.hits.map((h) => `${h.count}× ${h.rule}`).join(', ')}\n`);
    return 0;
  } finally {
    source.close();
  }
}
