/**
 * `mcpscope load FILE --target URL`, assembled: the capture file read into a cassette and turned
 * into virtual-client scripts, optionally a tap of its own in front of the target (`record`: the
 * load's traffic becomes a capture, in `db`), then the run.
 */
import type { Cassette, ImportReport } from '@mcpscope/protocol';
import { planLoad } from '../load/load-plan.js';
import { runLoad, type LoadResult, type LoadRunOptions } from '../load/load-run.js';
import { readCassette } from './capture-file.js';
import { startMcpscope } from './start-mcpscope.js';

export interface LoadCaptureOptions extends Omit<LoadRunOptions, 'scripts'> {
  file: string;
  /** Through a tap of its own: the load's traffic is captured into `db` (default: in memory). */
  record?: boolean;
  db?: string;
  /** Told once the run is about to start: how many sessions and calls one pass holds. */
  onPlan?(plan: { sessions: number; calls: number }): void;
}

export type LoadCaptureResult = { ok: true; result: LoadResult; cassette: Cassette; report: ImportReport; recordedTo?: string } | { ok: false; message: string };

export async function loadCapture(options: LoadCaptureOptions): Promise<LoadCaptureResult> {
  const read = readCassette(options.file);
  if (!read.ok) return read;
  const plan = planLoad(read.cassette);
  if (!plan.ok) return { ok: false, message: `${options.file}: ${plan.message}` };
  options.onPlan?.({ sessions: plan.scripts.length, calls: plan.calls });
  const recorder = options.record ? await startMcpscope({ target: options.target.href, db: options.db ?? ':memory:', port: 0, uiPort: 0 }) : undefined;
  try {
    const { file: _file, record: _record, db: _db, onPlan: _onPlan, ...run } = options;
    const result = await runLoad({ ...run, scripts: plan.scripts, target: recorder ? new URL(recorder.mcpUrl) : options.target });
    return { ok: true, result, cassette: read.cassette, report: read.report, ...(recorder ? { recordedTo: options.db ?? ':memory:' } : {}) };
  } finally {
    await recorder?.close();
  }
}
