import { homedir } from 'node:os';
import { join } from 'node:path';

/** The default capture file: `$XDG_DATA_HOME/mcpscope/capture.db` (or ~/.local/share/…). */
export function defaultDbPath(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'mcpscope', 'capture.db');
}
