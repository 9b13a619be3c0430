/**
 * Opening the capture file for writing, with failures said in words: a `--db` whose directory
 * cannot be made (a file in the way, no permission, a read-only file system) or whose file cannot
 * be written gives one clear line naming the file and what to do, not a stack trace (and not a
 * complaint about a --stdio command that was never started).
 */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { InspectorError } from '../core/errors.js';
import { CaptureStore } from './capture-store.js';
import { storageProblem } from './capture-health.js';

const FS_REASONS: Record<string, string> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ENOSPC: 'the disk is full',
  ENOENT: 'the directory does not exist and cannot be created',
};

function reasonOf(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return (typeof code === 'string' && FS_REASONS[code]) || storageProblem(err) || (err as Error).message;
}

/**
 * Why the nearest existing directory above `dir` refuses writes (EROFS, EACCES), if it does:
 * a recursive mkdir on a read-only file system reports only ENOENT.
 */
function whyNotWritable(dir: string): unknown {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
    return undefined;
  } catch (err) {
    return err;
  }
}

const ADVICE = 'Choose a --db on a disk you can write (or --db :memory: to keep nothing).';

/** The writable store for `file`, its directory created (0700: captures are private) when missing. */
export function openCaptureStore(file: string): CaptureStore {
  if (file !== ':memory:') {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new InspectorError('db_unwritable', `cannot create the directory of the capture file ${file}: ${reasonOf(whyNotWritable(dirname(file)) ?? err)}. ${ADVICE}`);
    }
  }
  try {
    return new CaptureStore(file);
  } catch (err) {
    if (err instanceof InspectorError) throw err;
    throw new InspectorError('db_unwritable', `cannot write the capture file ${file}: ${reasonOf(err)}. ${ADVICE}`);
  }
}
