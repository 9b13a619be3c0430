/**
 * The `mcpscope export` and `mcpscope open` subcommands. Parsing is pure (argv in, options or a
 * usage message out); running writes the export to a file or stdout, or serves the dashboard.
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { FrameSource } from './frame-source.js';
import { buildExport, EXPORT_FORMATS, type ExportFormat, type ExportRequest } from './export-service.js';
import { BUILT_IN_RULES } from './redaction.js';
import { openCapture } from './open-capture.js';

export const EXPORT_USAGE = `Usage:
  mcpscope export --db FILE --format har|jsonl|curl [options]
  mcpscope open FILE [--ui-port N] [--token T] [--no-open]

export options:
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

open: serves the dashboard over a JSONL, HAR or capture database file, with no proxy. Read-only.
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

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Runs `mcpscope export`; returns the exit code. */
export async function runExport(argv: string[], io: CliIo): Promise<number> {
  const cli = parseExportArgs(argv);
  if (cli.kind === 'usage') {
    io.stderr.write(`mcpscope export: ${cli.message}\n\n${EXPORT_USAGE}`);
    return 2;
  }
  let source: FrameSource;
  try {
    source = FrameSource.openFile(cli.db);
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

export type OpenCli = { kind: 'open'; file: string; uiPort: number; token?: string; open: boolean } | { kind: 'usage'; message: string };

export function parseOpenArgs(argv: string[], env: Record<string, string | undefined> = {}): OpenCli {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { 'ui-port': { type: 'string' }, token: { type: 'string' }, 'no-open': { type: 'boolean' } } });
  } catch (err) {
    return { kind: 'usage', message: (err as Error).message };
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return { kind: 'usage', message: 'open takes one FILE (.jsonl, .har or a capture database)' };
  const uiPort = values['ui-port'] === undefined ? 7789 : Number(values['ui-port']);
  if (!Number.isInteger(uiPort) || uiPort < 0 || uiPort > 65535) return { kind: 'usage', message: `--ui-port must be a port number (got "${values['ui-port']}")` };
  const token = values.token ?? env.MCPSCOPE_TOKEN;
  if (token !== undefined && token.length < 16) return { kind: 'usage', message: '--token must be at least 16 characters' };
  return { kind: 'open', file: positionals[0]!, uiPort, ...(token ? { token } : {}), open: !values['no-open'] };
}

/** Runs `mcpscope open`; resolves with a stop function once the dashboard is up, or an exit code. */
export async function runOpen(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number | (() => Promise<void>)> {
  const cli = parseOpenArgs(argv, env);
  if (cli.kind === 'usage') {
    io.stderr.write(`mcpscope open: ${cli.message}\n\n${EXPORT_USAGE}`);
    return 2;
  }
  const opened = await openCapture({ file: cli.file, uiPort: cli.uiPort, ...(cli.token ? { token: cli.token } : {}) });
  if (!opened.ok) {
    io.stderr.write(`mcpscope open: ${opened.message}\n`);
    return 1;
  }
  const { report } = opened.value;
  const lines = [
    '',
    `  mcpscope is showing ${cli.file} (read-only, no proxy running)`,
    '',
    `  Imported:                          ${report.frames} frames in ${report.sessionKeys.length} session(s)${report.skipped ? `, ${report.skipped} non-MCP HAR entries skipped` : ''}`,
    `  Dashboard:                         ${opened.value.dashboardLoginUrl}`,
    '',
  ];
  for (const p of report.problems.slice(0, 20)) lines.push(`  Not imported: ${p.where}: ${p.message}`);
  if (report.problems.length > 20) lines.push(`  … and ${report.problems.length - 20} more problems`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return opened.value.close;
}
