/**
 * Local files that stand in for widget resources while a developer edits one: the playground's
 * "HTML from a local file", read-only and watched, so every save re-renders the widget.
 *
 * Only a file the user named is ever read, through the token-guarded dashboard API or
 * `--widget-file` — never a path from the capture or the widget. What a page that got hold of the
 * API could ask for is bounded here too:
 * - the path must be absolute and name an `.html` or `.htm` file, before and after symbolic links
 *   are followed (a link named `widget.html` to `~/.ssh/id_rsa` is refused);
 * - it must be a regular file (no directory, FIFO or device: opened non-blocking, checked on the
 *   open descriptor, so no swap between check and read), at most MAX_WIDGET_FILE_BYTES, UTF-8;
 * - it is opened read-only, and its text goes nowhere but into a widget preview, i.e. the same
 *   sandbox origin as any widget's HTML (never the dashboard's origin).
 *
 * A change is read after a short settle (an editor writes in several steps, or replaces the file
 * by rename: the directory is watched, by name). Only a change of content makes a new version; a
 * read that fails keeps the last good content and says why.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, isAbsolute } from 'node:path';
import type { WidgetFileEvent, WidgetFileState } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';

export const MAX_WIDGET_FILE_BYTES = 5 * 1024 * 1024;
/** How many widgets may be served from local files at once. */
export const MAX_WIDGET_FILES = 16;
/** Quiet time after the last change event before the file is read again. */
const SETTLE_MS = 40;
/** The URI a file for every widget is kept under (`--widget-file PATH`). */
export const ANY_WIDGET = '*';

const HTML_NAME = /\.html?$/i;

interface Watched {
  state: WidgetFileState;
  html: string;
  watcher: FSWatcher;
  timer?: NodeJS.Timeout;
}

const refused = (message: string) => new InspectorError('widget_file_refused', message);

/** Reads a file the user named, as the rules above allow; throws `widget_file_refused` otherwise. */
export function readWidgetFile(path: string): { path: string; html: string } {
  if (typeof path !== 'string' || path === '') throw refused('Name the widget file: an absolute path to an .html file.');
  if (!isAbsolute(path)) throw refused(`"${path}" is not an absolute path; name the file from the root (the dashboard does not guess a working directory).`);
  if (!HTML_NAME.test(path)) throw refused(`${path} is not an .html or .htm file; only a widget's HTML file can stand in for its resource.`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    throw refused(`${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
  if (!HTML_NAME.test(real)) throw refused(`${path} leads to ${real}, which is not an .html or .htm file.`);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw refused(`${real} cannot be opened: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw refused(`${real} is not a regular file.`);
    if (stat.size > MAX_WIDGET_FILE_BYTES) throw refused(`${real} is ${stat.size.toLocaleString('en')} bytes; a widget file may be at most ${MAX_WIDGET_FILE_BYTES.toLocaleString('en')}.`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    let html: string;
    try {
      html = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, read));
    } catch {
      throw refused(`${real} is not UTF-8 text.`);
    }
    return { path: real, html };
  } finally {
    closeSync(fd);
  }
}

export class WidgetFiles {
  private readonly files = new Map<string, Watched>();
  private readonly listeners = new Set<(event: WidgetFileEvent) => void>();

  /** Serves `path` for the widget `uri` (ANY_WIDGET: every widget), replacing any file it had. */
  open(uri: string, path: string): WidgetFileState {
    const first = readWidgetFile(path);
    if (!this.files.has(uri) && this.files.size >= MAX_WIDGET_FILES) throw refused(`${MAX_WIDGET_FILES} widgets are already served from local files; stop one first.`);
    this.stop(uri, false);
    const state: WidgetFileState = { uri, path: first.path, version: 1, bytes: Buffer.byteLength(first.html) };
    const name = basename(first.path);
    const watcher = watch(dirname(first.path), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      const entry = this.files.get(uri);
      if (!entry || entry.watcher !== watcher) return;
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => this.reread(uri, entry), SETTLE_MS);
    });
    watcher.on('error', () => undefined);
    this.files.set(uri, { state, html: first.html, watcher });
    this.emit({ type: 'changed', file: { ...state } });
    return { ...state };
  }

  /** The file serving `uri` (its own, else the one for every widget). */
  for(uri: string): { state: WidgetFileState; html: string } | undefined {
    const entry = this.files.get(uri) ?? this.files.get(ANY_WIDGET);
    return entry ? { state: { ...entry.state }, html: entry.html } : undefined;
  }

  /** The file set for exactly `uri`, if any. */
  state(uri: string): WidgetFileState | undefined {
    const entry = this.files.get(uri);
    return entry ? { ...entry.state } : undefined;
  }

  all(): WidgetFileState[] {
    return [...this.files.values()].map((e) => ({ ...e.state }));
  }

  stop(uri: string, tell = true): boolean {
    const entry = this.files.get(uri);
    if (!entry) return false;
    clearTimeout(entry.timer);
    entry.watcher.close();
    this.files.delete(uri);
    if (tell) this.emit({ type: 'stopped', uri });
    return true;
  }

  subscribe(listener: (event: WidgetFileEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const uri of [...this.files.keys()]) this.stop(uri, false);
    this.listeners.clear();
  }

  private reread(uri: string, entry: Watched): void {
    if (this.files.get(uri) !== entry) return;
    let next: { html: string };
    try {
      next = readWidgetFile(entry.state.path);
    } catch (err) {
      // Mid-save (renamed away, half written): keep serving the last good content.
      const problem = (err as Error).message;
      if (entry.state.problem === problem) return;
      entry.state = { ...entry.state, problem };
      this.emit({ type: 'changed', file: { ...entry.state } });
      return;
    }
    if (next.html === entry.html && entry.state.problem === undefined) return;
    const changed = next.html !== entry.html;
    entry.html = next.html;
    const { problem: _gone, ...rest } = entry.state;
    entry.state = { ...rest, version: entry.state.version + (changed ? 1 : 0), bytes: Buffer.byteLength(next.html) };
    this.emit({ type: 'changed', file: { ...entry.state } });
  }

  /** Runs in a watcher's timer: a listener that throws (a stream that closed) is dropped, never thrown past here. */
  private emit(event: WidgetFileEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }
}
