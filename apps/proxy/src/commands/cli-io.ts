import { terminalText } from '@mcpscope/protocol';

/** Where a subcommand writes (the process's streams, or a test's). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Writes text for a person at a terminal: every control character but newline and tab is shown
 * as a visible escape (terminalText), so traffic quoted in a command's output cannot drive the
 * terminal. For what a command prints, never for data it streams (an export, the MCP stdio wire).
 */
export function terminalWriter(stream: NodeJS.WritableStream): (text: string) => void {
  return (text) => void stream.write(terminalText(text));
}
