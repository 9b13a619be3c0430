/**
 * `mcpscope rebuild [--db FILE]`: recomputes the derived tables of a capture file from its frames
 * and says what it found. Refuses (clearly) while another mcpscope has the file open.
 */
import { parseArgs } from 'node:util';
import { defaultDbPath } from '../capture/data-dir.js';
import { CaptureStore } from '../capture/capture-store.js';
import { rebuildDerived } from '../capture/rebuild.js';
import { UsageError } from './cli-args.js';

export function runRebuild(argv: string[], out: (line: string) => void): void {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { db: { type: 'string' } } }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const file = values.db ?? defaultDbPath();
  if (file === ':memory:') throw new UsageError('rebuild needs a capture file, not :memory:');
  const store = new CaptureStore(file);
  try {
    const started = performance.now();
    const r = rebuildDerived(store);
    const seconds = (performance.now() - started) / 1000;
    out(`rebuilt ${file} from ${r.frames} frames in ${seconds.toFixed(1)} s: ${r.exchanges} exchanges, ${r.sessions} sessions, ${r.diagnostics} diagnostics`);
  } finally {
    store.close();
  }
}
