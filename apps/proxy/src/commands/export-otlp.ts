/**
 * `mcpscope export --db FILE --format otlp --otlp URL`: a stored capture's exchanges (all, a
 * filter's, a session's or one) sent as spans, waiting for the backend rather than dropping
 * anything. Exit 0 when every span was accepted, 1 when some were not (or nothing matched an
 * `--exchange`), 2 for bad input.
 */
import { parseFilter } from '@mcpscope/protocol';
import { CaptureReader } from '../capture/capture-reader.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { checkRedactList } from '../redaction/export-redaction.js';
import { BodyAttributes, exportExchanges, selectExchanges, SpanSender, type ExportSelection, type OtlpConfig } from '../otlp/index.js';
import type { CliIo } from './cli-io.js';

export interface OtlpExportCli {
  db: string;
  otlp: OtlpConfig;
  redact: string[];
  filter?: string;
  session?: string;
  exchange?: string;
}

export async function runOtlpExport(cli: OtlpExportCli, io: CliIo): Promise<number> {
  const fail = (code: number, message: string) => {
    io.stderr.write(`mcpscope export: ${message}\n`);
    return code;
  };
  const badRedact = checkRedactList(cli.redact);
  if (badRedact) return fail(2, badRedact);
  const selection: ExportSelection = {};
  if (cli.filter !== undefined) {
    const parsed = parseFilter(cli.filter);
    if (!parsed.ok) return fail(2, `--filter: ${parsed.error.message} (at character ${parsed.error.position + 1})`);
    if (parsed.filter) selection.filter = parsed.filter;
  }
  if (cli.session !== undefined) selection.session = cli.session;
  if (cli.exchange !== undefined) selection.exchange = cli.exchange;
  let reader: CaptureReader;
  try {
    reader = CaptureReader.openFile(cli.db);
  } catch (err) {
    return fail(1, `cannot open ${cli.db}: ${(err as Error).message}`);
  }
  try {
    if (cli.exchange !== undefined && !reader.exchange(cli.exchange)) return fail(1, `no exchange "${cli.exchange}" in ${cli.db}`);
    const query = new CaptureQuery(reader);
    const exchanges = selectExchanges(reader, (filter, limit, before) => query.exchanges(filter, limit, before), selection);
    const bodies = cli.otlp.bodies ? new BodyAttributes(cli.redact) : undefined;
    const status = await exportExchanges(exchanges, reader, new SpanSender(cli.otlp), bodies);
    const sent = `${status.exported} span${status.exported === 1 ? '' : 's'} to ${cli.otlp.url}`;
    if (status.failed) return fail(1, `sent ${sent}; ${status.failed} failed: ${status.lastError?.message ?? 'the endpoint refused them'}`);
    io.stderr.write(`mcpscope export: sent ${sent}${cli.otlp.bodies ? ' (bodies redacted)' : ''}\n`);
    return 0;
  } finally {
    reader.close();
  }
}
