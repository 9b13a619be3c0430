/**
 * The large-frame writer's worker (large-writer.ts starts it): a module worker with its own
 * connection to the capture file, serving the messages of engine-contract.ts (`LargeRequest`,
 * answered with `LargeAnswer`). Bodies arrive as blocks while they stream and are decoded as they
 * come (the tap decodes the same way, chunk by chunk); when told to write one, it builds the
 * body's skeleton and stores all of its text but the head as pieces, in one transaction.
 *
 * Invariants:
 * - Nothing it stores is visible before the tick that writes the frame's row (with the head) on
 *   the engine's connection: pieces without their row are deleted on the next open.
 * - A body that mentions a secret's name, or has no skeleton, is never stored here: it goes back
 *   as text, to be redacted and derived as any frame is.
 * - Forwarding first: on Linux this thread alone runs at a lower CPU priority (`nice`), so on a
 *   busy machine the tap's thread wins the CPU and the write waits (it holds capture, not traffic).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { workerData } from 'node:worker_threads';
import { MENTIONS_SECRET } from '../redaction/redact-secrets.js';
import { workerAnswerer } from './answering-worker.js';
import { engineFailure, type LargeAnswer, type LargeRequest, type LargeWriterData } from './engine-contract.js';
import { SKELETON_FROM_CHARS, SKELETON_STRING_CHARS, frameSkeleton } from './frame-skeleton.js';
import { openSqlite, type SqliteDatabase } from './sqlite.js';

interface Body {
  decoder: StringDecoder;
  pieces: string[];
}

const { port, answer } = workerAnswerer();
const data = workerData as LargeWriterData;
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), data.nice);
} catch {
  // Not Linux, or not allowed: the thread keeps the process's priority.
}
const db: SqliteDatabase = openSqlite(data.file, { timeout: data.busyMs });
db.exec('PRAGMA synchronous = NORMAL');
const insertPiece = db.prepare('INSERT INTO frame_parts (seq, part, raw) VALUES (?, ?, ?)');
const storePieces = db.transaction((seq: number, text: string, ends: number[]) => {
  for (let i = 1; i < ends.length; i++) insertPiece.run(seq, i, text.slice(ends[i - 1], ends[i]));
});
const bodies = new Map<number, Body>();

const send = (message: LargeAnswer) => answer(message);

function bodyOf(id: number): Body {
  let body = bodies.get(id);
  if (!body) bodies.set(id, (body = { decoder: new StringDecoder('utf8'), pieces: [] }));
  return body;
}

/** Where the text's pieces end: the head, then every `partChars` characters, never inside a surrogate pair. */
function pieceEnds(text: string): number[] {
  const ends: number[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + (at === 0 ? data.headChars : data.partChars));
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    ends.push(end);
    at = end;
  }
  return ends;
}

function write(id: number, seq: number): LargeAnswer {
  const body = bodyOf(id);
  bodies.delete(id);
  const rest = body.decoder.end();
  if (rest.length > 0) body.pieces.push(rest);
  const text = body.pieces.join('');
  body.pieces = [];
  const skeleton = text.length >= SKELETON_FROM_CHARS ? frameSkeleton(text, SKELETON_STRING_CHARS) : undefined;
  if (skeleton === undefined || MENTIONS_SECRET.test(text)) return { id, kind: 'returned', text };
  const ends = pieceEnds(text);
  storePieces(seq, text, ends);
  return { id, kind: 'stored', chars: text.length, bytes: Buffer.byteLength(text), head: text.slice(0, ends[0]), pieces: ends.length - 1, skeleton };
}

port.on('message', (m: LargeRequest) => {
  if (m.type === 'block') {
    const body = bodyOf(m.id);
    const piece = body.decoder.write(Buffer.from(m.block.buffer, m.block.byteOffset, m.block.length));
    if (piece.length > 0) body.pieces.push(piece);
  } else if (m.type === 'drop') {
    bodies.delete(m.id);
  } else if (m.type === 'write') {
    try {
      send(write(m.id, m.seq));
    } catch (err) {
      bodies.delete(m.id);
      send({ id: m.id, kind: 'failed', error: engineFailure(err) });
    }
  } else {
    try {
      db.close();
    } catch {
      // Closing is all that is left to do: the port answers either way.
    }
    answer({ id: -1 });
    port.close();
  }
});
