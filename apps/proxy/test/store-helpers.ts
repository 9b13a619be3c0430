/**
 * Builders for the store tests: temporary capture files, the real `mcpscope` command as a child
 * process (run from source through tsx, so the test needs no build), and table snapshots.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const CLI = new URL('../src/commands/cli.ts', import.meta.url).pathname;

export function tempDbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpscope-store-')), 'capture.db');
}

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

/** Starts `mcpscope ARGS` from source. */
export function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, ['--conditions=mcpscope-source', '--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => out, exited };
}

/** Starts the proxy from source and waits (bounded) for its banner; returns the URLs it printed. */
export async function startCli(args: string[]): Promise<CliProcess & { mcpUrl: string; dashboardLoginUrl: string }> {
  const p = spawnCli(['--port', '0', '--ui-port', '0', '--no-open', ...args]);
  const deadline = Date.now() + 30_000;
  while (!/Dashboard:\s+\S+/.test(p.output())) {
    if (p.child.exitCode !== null) throw new Error(`mcpscope exited early:\n${p.output()}`);
    if (Date.now() > deadline) throw new Error(`mcpscope did not print its banner:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const mcpUrl = /Tap \(point your MCP client here\):\s+(\S+)/.exec(p.output())![1]!;
  const dashboardLoginUrl = /Dashboard:\s+(\S+)/.exec(p.output())![1]!;
  return { ...p, mcpUrl, dashboardLoginUrl };
}

/** Every row of the derived tables, in key order, for comparing two states of a capture file. */
export function snapshotDerived(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return {
      exchanges: db.prepare('SELECT * FROM exchanges ORDER BY id').all(),
      sessions: db.prepare('SELECT * FROM sessions ORDER BY session_key').all(),
      diagnostics: db.prepare('SELECT * FROM diagnostics ORDER BY id').all(),
      frame_exchanges: db.prepare('SELECT * FROM frame_exchanges ORDER BY frame_seq, exchange_id').all(),
    };
  } finally {
    db.close();
  }
}
