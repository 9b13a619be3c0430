/**
 * `mcpscope evidence FILE (--exchange ID | --conversation KEY)`: writes the evidence pack of one
 * exchange or conversation of a capture database, as Markdown (default) or one HTML file,
 * redacted unless the user opts out. A capture file has no live server, so no control replay is
 * made here (the dashboard of a running mcpscope makes one).
 */
import { writeFileSync } from 'node:fs';
import { CaptureReader } from '../capture/capture-reader.js';
import { isSqliteFile } from '../compose/capture-file.js';
import { isEvidenceFormat, writeEvidence, type EvidenceRequest } from '../evidence/evidence-service.js';
import { UsageError } from './cli-args.js';
import type { CliIo } from './cli-io.js';
import { parseFileCommandArgs } from './command-args.js';

export const EVIDENCE_USAGE = `Usage:
  mcpscope evidence FILE (--exchange ID | --conversation KEY) [--format md|html] [--out PATH] [--unredacted]

Writes one self-contained file for a bug report: the verdict, the client and server and their
protocol revision, a timeline excerpt, every frame byte for byte with its SHA-256, the HTTP
requests at the tap and the timings. Redacted like exports.

Options:
  FILE                a capture database (read-only; a running mcpscope may keep writing)
  --exchange ID       the exchange (its id as the dashboard shows it)
  --conversation KEY  or a whole conversation (c123)
  --format F          md (Markdown with the JSON attached; default) or html (one file, no scripts)
  --out PATH          write here instead of stdout
  --unredacted        keep secrets as captured (off by default)

A control replay of the failed call needs the live server: use "Evidence pack" in the dashboard
of a running mcpscope.
`;

export type EvidenceCli = { kind: 'evidence'; file: string; out?: string; request: EvidenceRequest } | { kind: 'usage'; message: string } | { kind: 'help' };

export function parseEvidenceArgs(argv: string[]): EvidenceCli {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  if (argv.includes('--replay')) return { kind: 'usage', message: '--replay needs the live server: a capture file has none. Use "Evidence pack" with "control replay" in the dashboard of a running mcpscope.' };
  let parsed;
  try {
    parsed = parseFileCommandArgs(
      argv,
      { exchange: { type: 'string' }, conversation: { type: 'string' }, format: { type: 'string' }, out: { type: 'string', short: 'o' }, unredacted: { type: 'boolean' } },
      'evidence takes one FILE, a capture database',
    );
  } catch (err) {
    if (err instanceof UsageError) return { kind: 'usage', message: err.message };
    throw err;
  }
  const { values, file } = parsed;
  if ((values.exchange === undefined) === (values.conversation === undefined)) return { kind: 'usage', message: 'name one --exchange ID or one --conversation KEY' };
  const format = values.format ?? 'md';
  if (!isEvidenceFormat(format)) return { kind: 'usage', message: `--format must be md or html (got "${format}")` };
  const subject = values.exchange !== undefined ? { kind: 'exchange' as const, id: values.exchange } : { kind: 'conversation' as const, key: values.conversation! };
  return { kind: 'evidence', file, ...(values.out ? { out: values.out } : {}), request: { subject, format, unredacted: values.unredacted ?? false } };
}

/** Runs `mcpscope evidence`; returns the exit code (2: the arguments, the file or the id is wrong). */
export async function runEvidence(argv: string[], io: CliIo): Promise<number> {
  const cli = parseEvidenceArgs(argv);
  if (cli.kind === 'help') {
    io.stdout.write(EVIDENCE_USAGE);
    return 0;
  }
  if (cli.kind === 'usage') {
    io.stderr.write(`mcpscope evidence: ${cli.message}\n\n${EVIDENCE_USAGE}`);
    return 2;
  }
  const problem = fileProblem(cli.file);
  if (problem) {
    io.stderr.write(`mcpscope evidence: ${problem}\n`);
    return 2;
  }
  let source: CaptureReader;
  try {
    source = CaptureReader.openFile(cli.file);
  } catch (err) {
    io.stderr.write(`mcpscope evidence: cannot read ${cli.file}: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const out = await writeEvidence({ source }, cli.request);
    if (!out.ok) {
      io.stderr.write(`mcpscope evidence: ${out.message}\n`);
      return 2;
    }
    if (cli.out) writeFileSync(cli.out, out.text);
    else io.stdout.write(out.text);
    const { redaction } = out.pack;
    if (!redaction.enabled) io.stderr.write('mcpscope evidence: UNREDACTED pack: it may contain tokens, cookies and secrets.\n');
    else if (redaction.hits.length > 0) io.stderr.write(`mcpscope evidence: redacted ${redaction.hits.map((h) => `${h.count}× ${h.rule}`).join(', ')}\n`);
    if (cli.out) io.stderr.write(`mcpscope evidence: wrote ${cli.out} (${out.pack.verdicts.length} verdict${out.pack.verdicts.length === 1 ? '' : 's'}, ${out.pack.frames.length} frames)\n`);
    return 0;
  } finally {
    source.close();
  }
}

/** What is wrong with FILE as a capture database, or undefined. */
function fileProblem(file: string): string | undefined {
  if (file === ':memory:') return 'an in-memory capture cannot be read from another process; use "Evidence pack" in its dashboard';
  try {
    if (!isSqliteFile(file)) return `${file} is not a capture database (a .jsonl or .har export? open it with \`mcpscope open ${file}\` and use "Evidence pack" in the dashboard)`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${file}: no such file` : code === 'EISDIR' ? `${file} is a directory, not a capture database` : `cannot read ${file}: ${(err as Error).message}`;
  }
  return undefined;
}
