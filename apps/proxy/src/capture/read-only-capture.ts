/**
 * A capture file read in place, never written (`mcpscope open`): one read-only SQLite connection,
 * so opening costs the same at a hundred exchanges as at a million, and the file's bytes and
 * modification time stay as they were.
 *
 * Another mcpscope may be recording the file (its sidecar lock says so, file-lock.ts): the file
 * is in WAL mode, where a reader never blocks the writer, so it is read alongside, each query
 * seeing what was committed when it ran.
 *
 * SQLite makes a WAL file's `-wal` and `-shm` beside it for any reader. Those this reader made are
 * removed when it closes, if no mcpscope is recording the file then (its lock, taken for that
 * moment, keeps a writer from starting meanwhile) and the `-wal` holds nothing; ones that were
 * there before (a recording mcpscope's, or a crashed one's with frames in its WAL) are left alone.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { CaptureReader } from './capture-reader.js';
import { CaptureFileLock } from './file-lock.js';
import { ensurePrivateFile } from './capture-store.js';

const SIDE_FILES = ['-wal', '-shm'] as const;

export interface ReadOnlyCapture {
  reader: CaptureReader;
  /** Another mcpscope was recording the file when it was opened. */
  recordedElsewhere: boolean;
  close(): void;
}

/** Opens `file` read-only; throws what CaptureReader.openFile throws (a file too old, too new, not a capture). */
export function openReadOnly(file: string): ReadOnlyCapture {
  const recordedElsewhere = CaptureFileLock.heldElsewhere(file);
  const there = SIDE_FILES.filter((suffix) => existsSync(file + suffix));
  const reader = CaptureReader.openFile(file);
  return {
    reader,
    recordedElsewhere,
    close: () => {
      reader.close();
      removeWhatReadingMade(file, there);
    },
  };
}

function removeWhatReadingMade(file: string, there: readonly string[]): void {
  const made = SIDE_FILES.filter((suffix) => !there.includes(suffix) && existsSync(file + suffix));
  if (made.length === 0) return;
  let lock: CaptureFileLock | undefined;
  try {
    ensurePrivateFile(`${file}.lock`);
    lock = CaptureFileLock.tryTake(file);
  } catch {
    // A directory that takes no new file: the side files stay, as SQLite left them.
    return;
  }
  if (!lock) return;
  try {
    const wal = file + '-wal';
    if (existsSync(wal) && statSync(wal).size > 0) return;
    for (const suffix of made) rmSync(file + suffix, { force: true });
  } finally {
    lock.release();
  }
}
