/**
 * `--stdio "CMD ARGS"`: spawns the server and wires its pipes to the bridge that serves it over
 * Streamable HTTP. Fails at start-up, not at the first request, when the command cannot run.
 */
import type { FrameInput } from '@mcpscope/protocol';
import { splitCommand } from '../../upstream/split-command.js';
import { StdioBridge } from './stdio-bridge.js';
import { StdioChild } from '../../upstream/stdio-child.js';

export interface StdioUpstream {
  argv: string[];
  bridge: StdioBridge;
  child: StdioChild;
  close(): Promise<void>;
}

export async function startStdioUpstream(commandLine: string, deps: { record(frame: FrameInput): number; now(): number; mcpPath: string }): Promise<StdioUpstream> {
  const argv = splitCommand(commandLine);
  const bridge = new StdioBridge(deps);
  const child = await StdioChild.start(argv, {
    onStdoutLine: (line) => bridge.serverLine(line),
    onStderrLine: (line) => bridge.logLine(line),
    onExit: (description) => bridge.childExited(description),
  });
  bridge.attach(child);
  return { argv, bridge, child, close: () => child.close() };
}
