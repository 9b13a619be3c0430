/**
 * The `mcpscope` command line: picks the subcommand from argv and turns failures into one line
 * on stderr and an exit code. Each subcommand is one file beside this one.
 */
import { UsageError } from './cli-args.js';
import { InspectorError } from '../core/errors.js';

// Each subcommand is imported when chosen, so `--version`, `--help` and a mistyped flag answer
// at once instead of loading the tap, the OpenTelemetry SDK and the widget host first.
async function main(): Promise<void> {
  // `pnpm mcpscope -- --target …` passes the `--` through.
  const argv = process.argv[2] === '--' ? process.argv.slice(3) : process.argv.slice(2);
  const io = { stdout: process.stdout, stderr: process.stderr };
  switch (argv[0]) {
    case 'export':
      process.exit(await (await import('./export.js')).runExport(argv.slice(1), io));
      break;
    case 'evidence':
      process.exit(await (await import('./evidence.js')).runEvidence(argv.slice(1), io));
      break;
    case 'open': {
      const opened = await (await import('./open.js')).runOpen(argv.slice(1), process.env, io);
      if (typeof opened === 'number') process.exit(opened);
      const stop = () => void opened().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      return;
    }
    case 'mcp': {
      const code = await (await import('./mcp.js')).runMcp(argv.slice(1), process.env, io);
      process.exit(code ?? 0);
      break;
    }
    case 'mock': {
      const served = await (await import('./mock.js')).runMock(argv.slice(1), process.env, io);
      if (typeof served === 'number') process.exit(served);
      const stop = () => void served().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      return;
    }
    case 'audit':
      process.exit(await (await import('./audit.js')).runAudit(argv.slice(1), io));
      break;
    case 'verify':
      process.exit(await (await import('./verify.js')).runVerify(argv.slice(1), io));
      break;
    case 'load': {
      // Ctrl-C stops the run; the table of what was measured is still printed.
      const interrupt = new AbortController();
      process.once('SIGINT', () => interrupt.abort());
      process.once('SIGTERM', () => interrupt.abort());
      process.exit(await (await import('./load.js')).runLoadCommand(argv.slice(1), { ...io, progressIsTty: process.stderr.isTTY === true }, interrupt.signal));
      break;
    }
    case 'rebuild':
      return (await import('./rebuild.js')).runRebuild(argv.slice(1), (line) => process.stdout.write(line + '\n'));
    default:
      return (await import('./run.js')).runMcpscope(argv, process.env, io);
  }
}

main().catch((err: unknown) => {
  const code = (err as { code?: string }).code;
  if (err instanceof UsageError) {
    // The mistake, not a screenful of help that buries it (git and npm do the same).
    process.stderr.write(`mcpscope: ${err.message}\nRun \`mcpscope --help\` for the options.\n`);
    process.exit(2);
  } else if (err instanceof InspectorError) {
    process.stderr.write(`mcpscope: ${err.message}\n`);
  } else if (code === 'ENOENT' || code === 'EACCES') {
    // Only spawning the --stdio command fails this way at start-up.
    process.stderr.write(`mcpscope: could not start the --stdio command: ${(err as Error).message}\n`);
  } else if (code === 'EADDRINUSE') {
    process.stderr.write(`mcpscope: a port is already in use (${(err as Error).message}). Choose another with --port / --ui-port.\n`);
  } else {
    process.stderr.write(`mcpscope: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
});
