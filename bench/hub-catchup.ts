/**
 * What a dashboard that reconnects costs the tap's thread: `LiveHub.attach` with `after` behind the
 * head runs its catch-up there, on a host's churn (dashboard-lists' capture: 30,000 conversations
 * of one session each, then 20,000 sessions in one conversation and 40,000 tools/call, through
 * the real pipeline). Per distance behind (100 and 5,000 frames, and 30,000: past `maxCatchUp`,
 * answered with `resync`), the time attach takes (median of ROUNDS) and the bytes it sends.
 * Baseline: reading every session and every conversation, which a catch-up that ignores what
 * changed would pay on every reconnect.
 */
import type { WSContext } from 'hono/ws';
import { CaptureReader } from '../apps/proxy/src/capture/capture-reader.js';
import { LiveHub } from '../apps/proxy/src/hub/live-hub.js';
import { buildChurnCaptureFile } from './support/dashboard-traffic.js';
import { tempDb } from './store-common.js';
import { measured, type BenchOptions, type BenchRow } from './report.js';

const BENCH = 'hub-catchup';
const ROUNDS = 5;
const NO_BATCHES = { onBatch: () => () => {} };

/** One reconnect `behind` frames behind the head: the time attach takes, the bytes and events it sends. */
function reconnect(reader: CaptureReader, behind: number): { ms: number; bytes: number; events: string[] } {
  const hub = new LiveHub(reader, NO_BATCHES);
  let bytes = 0;
  const events: string[] = [];
  const ws = {
    raw: undefined,
    send(text: string) {
      bytes += Buffer.byteLength(text);
      events.push((JSON.parse(text) as { type: string }).type);
    },
    close() {},
  } as unknown as WSContext;
  const started = performance.now();
  hub.attach(ws, Math.max(0, reader.head() - behind));
  const ms = performance.now() - started;
  hub.close();
  return { ms, bytes, events };
}

export async function bench(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const sessions = options.smoke ? 300 : 20_000;
  const calls = options.smoke ? 600 : 40_000;
  const conversations = options.smoke ? 300 : 30_000;
  const file = tempDb(BENCH);
  const built = buildChurnCaptureFile(file, sessions, calls, conversations);
  console.log(`built ${conversations + 1} conversations, ${conversations + sessions} sessions in ${built.seconds.toFixed(1)} s`);
  const reader = CaptureReader.openFile(file);
  const whole: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    reader.sessions();
    reader.conversations();
    whole.push(performance.now() - started);
  }
  const baseline = { name: 'every session and conversation read', value: whole.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]! };
  const rows: BenchRow[] = [];
  for (const behind of options.smoke ? [100, 1000] : [100, 5_000, 30_000]) {
    const rounds: number[] = [];
    let last = { ms: 0, bytes: 0, events: [] as string[] };
    for (let i = 0; i < ROUNDS; i++) {
      last = reconnect(reader, behind);
      rounds.push(last.ms);
    }
    rows.push(
      measured(
        {
          bench: BENCH,
          metric: `reconnect ${behind.toLocaleString('en-US')} frames behind: catch-up on the tap's thread`,
          unit: 'ms',
          baseline,
          note: `${(last.bytes / 1e6).toFixed(2)} MB sent: ${last.events.join(', ')}`,
        },
        rounds,
      ),
    );
  }
  reader.close();
  return rows;
}
