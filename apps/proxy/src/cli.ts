/**
 * The `mcpscope` command: parse flags, start, print the banner, stop cleanly on Ctrl-C.
 */
import { parseCli, USAGE, UsageError } from './config/cli-args.js';
import { startMcpscope } from './server.js';
import { runRebuild } from './capture/rebuild-command.js';
import { InspectorError } from './errors.js';
import { openBrowser } from './config/open-browser.js';
import { runExport, runOpen } from './export/export-cli.js';
import { VERSION } from './version.js';

async function main(): Promise<void> {
  let options;
  const argv = process.argv[2] === '--' ? process.argv.slice(3) : process.argv.slice(2);
  if (argv[0] === 'export') process.exit(await runExport(argv.slice(1), process));
  if (argv[0] === 'open') {
    const opened = await runOpen(argv.slice(1), process.env, process);
    if (typeof opened === 'number') process.exit(opened);
    const stop = () => void opened().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return;
  }
  try {
    if (argv[0] === 'rebuild') return runRebuild(argv.slice(1), (line) => process.stdout.write(line + '\n'));
    options = parseCli(argv, process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      // The mistake, not a screenful of help that buries it (git and npm do the same).
      process.stderr.write(`mcpscope: ${err.message}\nRun \`mcpscope --help\` for the options.\n`);
      process.exit(2);
    }
    throw err;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    process.stdout.write(`mcpscope ${VERSION}\n`);
    return;
  }
  const app = await startMcpscope(options);
  const upstream = app.demo ? `${app.upstreamUrl} (embedded demo server)` : app.stdio ? `${app.stdio.argv.join(' ')} (stdio, pid ${app.stdio.child.pid})` : app.upstreamUrl;
  process.stdout.write(
    [
      '',
      '  mcpscope is running',
      '',
      `  Tap (point your MCP client here):  ${app.mcpUrl}`,
      ...(app.publicMcpUrl ? [`  Public (connector URL):            ${app.publicMcpUrl}`] : []),
      `  Upstream:                          ${upstream}`,
      `  Dashboard:                         ${app.dashboardLoginUrl}`,
      `  Capture file:                      ${app.dbFile}`,
      ...(options.maxFrames || options.maxBytes
        ? [`  Retention:                         ${[options.maxFrames && `${options.maxFrames} frames`, options.maxBytes && `${options.maxBytes} bytes`].filter(Boolean).join(', ')} (oldest removed first)`]
        : []),
      '',
      '  The dashboard URL carries a secret token; do not share it.',
      '',
    ].join('\n') + '\n',
  );
  if (options.open) openBrowser(app.dashboardLoginUrl);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  const code = (err as { code?: string }).code;
  if (err instanceof InspectorError) {
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
