/**
 * A stdio MCP server as a child process: argv spawned without a shell, stdout and stderr split
 * into lines on bytes (protocol's LineSplitter, as the SDK does), and the MCP shutdown sequence:
 * close stdin, wait, SIGTERM, wait, SIGKILL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { LineSplitter, type LineItem } from '@mcpscope/protocol';

export interface ChildHooks {
  onStdoutLine(line: LineItem): void;
  onStderrLine(line: LineItem): void;
  /** The process ended (or never started); `description` says how. */
  onExit(description: string): void;
}

/**
 * mcpscope's environment minus what is mcpscope's own secret: the dashboard token
 * (`MCPSCOPE_TOKEN`) must not reach a server that may print its environment (server-everything's
 * get-env does) into a tool result anyone with the capture can read.
 */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { MCPSCOPE_TOKEN: _token, ...rest } = env;
  return rest;
}

export class StdioChild {
  private exited = false;
  private readonly exitPromise: Promise<void>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams, hooks: ChildHooks) {
    const out = new LineSplitter();
    const err = new LineSplitter();
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of out.push(chunk)) hooks.onStdoutLine(line);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      for (const line of err.push(chunk)) hooks.onStderrLine(line);
    });
    // Writing to a child that has just died raises EPIPE here; the exit is reported once, below.
    child.stdin.on('error', () => {});
    this.exitPromise = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        for (const line of out.end()) hooks.onStdoutLine(line);
        for (const line of err.end()) hooks.onStderrLine(line);
        this.exited = true;
        hooks.onExit(signal ? `the stdio server was stopped by ${signal}` : `the stdio server exited with code ${code}`);
        resolve();
      });
    });
  }

  /** Spawns `argv`; rejects when it cannot start (no such command, not executable). */
  static start(argv: string[], hooks: ChildHooks, env: NodeJS.ProcessEnv = childEnv()): Promise<StdioChild> {
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], shell: false, env });
      child.once('error', reject);
      child.once('spawn', () => {
        child.off('error', reject);
        resolve(new StdioChild(child, hooks));
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Writes one message line (the caller guarantees it holds no newline). */
  write(line: string): void {
    if (this.exited || this.child.stdin.destroyed) return;
    this.child.stdin.write(line + '\n');
  }

  /** Closes stdin and waits; then SIGTERM and waits; then SIGKILL. */
  async close(graceMs = 2000): Promise<void> {
    if (this.exited) return;
    this.child.stdin.end();
    if (await this.exitWithin(graceMs)) return;
    this.child.kill('SIGTERM');
    if (await this.exitWithin(graceMs)) return;
    this.child.kill('SIGKILL');
    await this.exitPromise;
  }

  private exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return Promise.race([this.exitPromise.then(() => true), timeout]).finally(() => clearTimeout(timer));
  }
}
