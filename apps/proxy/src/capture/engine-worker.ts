/**
 * The capture engine's worker (worker-engine.ts starts it): a module worker with its own
 * connection to the capture file, serving the engine port's messages (engine-contract.ts) with a
 * CaptureEngine, and checkpointing the WAL (PASSIVE, never blocking a reader) between ticks, so
 * SQLite's checkpoints never run on the tap's thread either.
 *
 * Before it answers ready it warms its deriver from the store, as opening a capture does. Schema
 * validators compile when a tick first needs them (validate/schema-validator.ts caches them per
 * revision and definition), so a start, which the tap waits for before it listens, costs no
 * compiling: the first tick of a revision pays it once, on this thread, never the tap's.
 */
import type { Frame, Message } from '@mcpscope/protocol';
import { threadId, workerData } from 'node:worker_threads';
import { workerAnswerer } from './answering-worker.js';
import { openSqlite, type SqliteDatabase } from './sqlite.js';
import { CaptureReader } from './capture-reader.js';
import { CaptureEngine } from './capture-engine.js';
import { engineFailure, type EngineAnswer, type EngineRequest, type EngineWorkerData, type TickOutcome } from './engine-contract.js';
import { readFrames } from './worker-engine.js';

const { port, answer, claim } = workerAnswerer();
const data = workerData as EngineWorkerData;
let db: SqliteDatabase | undefined;
let reader: CaptureReader | undefined;
let engine: CaptureEngine | undefined;
let checkpoints: NodeJS.Timeout | undefined;

/** An outcome as it crosses back: the door records' texts stay behind (the port has them). */
function sent(id: number, outcome: TickOutcome): EngineAnswer {
  const noted = outcome.noted ? { noted: outcome.noted } : {};
  if (outcome.ok) return { id, ok: true, texts: { ...outcome.texts, requests: [] }, ...noted };
  return { id, ok: false, error: engineFailure(outcome.failure), ...(outcome.keptForRetry ? { keptForRetry: true as const } : {}), ...noted };
}

try {
  // A capture closed while the worker loaded gives it up without waiting for it
  // (answering-worker.ts `claimsLate`).
  if (claim()) {
    db = openSqlite(data.file, { timeout: data.busyMs });
    // Per connection in SQLite: the settings of the store's own (capture-store.ts).
    db.exec(`PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = ${data.autocheckpoint}`);
    reader = new CaptureReader(db);
    engine = new CaptureEngine(reader, data.through);
    const checkpointing = db;
    checkpoints = setInterval(() => {
      // Busy or failed: the next round tries again, and the commits' own threshold is the backstop.
      try {
        checkpointing.exec('PRAGMA wal_checkpoint(PASSIVE)');
      } catch {
        // Left to the next round.
      }
    }, data.checkpointMs);
    answer({ id: 0, ready: true, thread: threadId } satisfies EngineAnswer);
  } else {
    port.close();
  }
} catch (err) {
  answer({ id: 0, error: engineFailure(err) } satisfies EngineAnswer);
}

port.on('message', (m: EngineRequest) => {
  if (m.type === 'stop') {
    if (checkpoints) clearInterval(checkpoints);
    try {
      db?.close();
    } catch {
      // Closing is all that is left to do: the port answers either way.
    }
    answer({ id: -1 });
    port.close();
    return;
  }
  if (!engine) return;
  if (m.type === 'tick') {
    for (const link of m.links) reader!.replayLinks.learn(link);
    const { frames, httpJson } = readFrames(m.frames);
    const largeMessages = new WeakMap<Frame, Message>(m.messages.map(([i, message]) => [frames[i]!, message]));
    answer(sent(m.id, engine.tick({ frames, doorRows: m.doorRows, largeMessages, httpJson }, m.committed === true)));
  } else if (m.type === 'retry') {
    answer(sent(m.id, engine.retry()));
  } else {
    try {
      engine.snapshot();
      answer({ id: m.id, ok: true } satisfies EngineAnswer);
    } catch (err) {
      answer({ id: m.id, ok: false, error: engineFailure(err) } satisfies EngineAnswer);
    }
  }
});
