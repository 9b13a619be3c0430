/**
 * `mcpscope open FILE`: the dashboard over a capture file, with no tap and no upstream.
 *
 * - A capture database is read in place, read-only (capture/read-only-capture.ts): ready at once
 *   whatever its size, and the file's bytes and modification time stay as they were. Its
 *   sessions keep their own keys. A file of another schema version is refused with what to do
 *   (it is never upgraded here); one another mcpscope is recording is read alongside it.
 * - An export (mcpscope JSONL, HAR) is imported through the capture pipeline, so its exchanges
 *   are derived by today's code, into a temporary capture file (never memory: a large export
 *   stays on disk), which is then read the same way and removed when mcpscope exits. Its
 *   sessions are marked imported.
 *
 * Read-only throughout: nothing can be sent (no replay, no upstream for widgets), and what would
 * write (an import, a mark, pausing capture) is refused by the API saying so (read_only).
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CaptureStore } from '../capture/capture-store.js';
import { CapturePipeline } from '../capture/capture-pipeline.js';
import { CaptureQuery } from '../capture/capture-query.js';
import type { CaptureReader } from '../capture/capture-reader.js';
import { openReadOnly, type ReadOnlyCapture } from '../capture/read-only-capture.js';
import { LiveHub } from '../hub/live-hub.js';
import { startDashboardListener } from './dashboard-listener.js';
import { agentEndpoint } from './agent-endpoint.js';
import { databaseMessage, isSqliteFile } from './capture-file.js';
import { streamImport } from '../interchange/import-stream.js';
import { InspectorError } from '../core/errors.js';
import type { ImportReport } from '@mcpscope/protocol';
import { WIDGET_LINK } from '../capture/replay-links.js';
import { WidgetCatalog } from '../widget-host/widget-catalog.js';
import { WidgetService } from '../widget-host/widget-service.js';
import { WidgetFiles } from '../widget-host/widget-files.js';
import { storedInterceptRoutes } from './intercept-wiring.js';

export interface OpenOptions {
  file: string;
  uiPort?: number;
  uiHost?: string;
  token?: string;
  webRoot?: string;
}

export interface OpenedCapture {
  dashboardUrl: string;
  dashboardLoginUrl: string;
  token: string;
  report: ImportReport;
  /** The capture as the dashboard reads it. */
  store: CaptureReader;
  /** Another mcpscope was recording the file when it was opened (it is read alongside). */
  recordedElsewhere: boolean;
  /** An export's temporary capture file (removed by `close`, or at exit); absent for a capture database. */
  importedInto?: string;
  close(): Promise<void>;
}

export type OpenResult = { ok: true; value: OpenedCapture } | { ok: false; message: string };

/** Nothing is ever recorded into a file shown read-only: the hub's batches never come. */
const NO_BATCHES = { onBatch: () => () => false };

export async function openCapture(options: OpenOptions): Promise<OpenResult> {
  const problem = unusable(options.file);
  if (problem) return { ok: false, message: problem };
  let database = false;
  let opened: { capture: ReadOnlyCapture; report: ImportReport; temp?: TempCapture };
  try {
    database = isSqliteFile(options.file);
    opened = database ? inPlace(options.file) : await imported(options.file);
  } catch (err) {
    return { ok: false, message: openMessage(options.file, err, database) };
  }
  const { capture, report, temp } = opened;
  const store = capture.reader;
  const hub = new LiveHub(store, NO_BATCHES);
  const name = basename(options.file);
  // Local widget files the user names in the playground (no --widget-file here: the file is read-only data).
  const widgetFiles = new WidgetFiles();
  const dashboard = await startDashboardListener({
    services: {
      store,
      query: new CaptureQuery(store),
      hub,
      exports: { source: store },
      agentMcp: agentEndpoint(store, undefined),
      capture: { status: () => ({ state: 'recording', notRecorded: { frames: 0, requests: 0 }, readOnly: { file: name } }), marks: () => store.marks.list() },
      // What rules the capture ran and what they did, shown and never run.
      intercept: storedInterceptRoutes(store.db),
    },
    // Widgets render from the file; with no upstream, what they send is refused.
    widgets: new WidgetService({ catalog: new WidgetCatalog(store), linkMode: WIDGET_LINK, files: widgetFiles }),
    widgetFiles,
    port: options.uiPort ?? 0,
    ...(options.uiHost !== undefined ? { host: options.uiHost } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.webRoot !== undefined ? { webRoot: options.webRoot } : {}),
  }).catch((err: unknown) => {
    capture.close();
    temp?.remove();
    throw err;
  });
  return {
    ok: true,
    value: {
      dashboardUrl: dashboard.url,
      dashboardLoginUrl: dashboard.loginUrl,
      token: dashboard.token,
      report,
      store,
      recordedElsewhere: capture.recordedElsewhere,
      ...(temp ? { importedInto: temp.file } : {}),
      close: async () => {
        widgetFiles.close();
        hub.close();
        await dashboard.close();
        capture.close();
        temp?.remove();
      },
    },
  };
}

/** Why `file` cannot be opened at all (missing, a directory, empty), or undefined. */
function unusable(file: string): string | undefined {
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) return `${file} is a directory, not a capture file`;
    if (stat.size === 0) return `${file} is empty: a capture database, an mcpscope JSONL export or a HAR file was expected`;
    return undefined;
  } catch (err) {
    return `cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`;
  }
}

/** A capture database, read where it is. */
function inPlace(file: string): { capture: ReadOnlyCapture; report: ImportReport } {
  const capture = openReadOnly(file);
  try {
    return { capture, report: describe(capture.reader, basename(file)) };
  } catch (err) {
    capture.close();
    throw err;
  }
}

/**
 * What the file holds, for the banner, from index ends and small tables only: no count walks a
 * table, so this costs the same at a million exchanges as at ten. `frames` is the span of seqs
 * stored (retention removes the oldest, so the span is what is there).
 */
function describe(reader: CaptureReader, name: string): ImportReport {
  const head = reader.head();
  const sessionKeys = (reader.stmt('SELECT session_key FROM sessions').all() as { session_key: string }[]).map((r) => r.session_key);
  const links = (reader.stmt('SELECT COUNT(*) AS n FROM replay_links').get() as { n: number }).n;
  return {
    format: 'mcpscope-db',
    name,
    frames: head === 0 ? 0 : head - reader.oldest() + 1,
    sessionKeys,
    skipped: 0,
    problems: [],
    ...(links > 0 ? { links } : {}),
  };
}

interface TempCapture {
  file: string;
  remove(): void;
}

/**
 * A temporary capture file in its own private directory, removed by `remove` or, if mcpscope
 * exits without closing (an uncaught error, process.exit), by an exit hook. Only a kill -9 leaves
 * it behind, in the system's temporary directory.
 */
function tempCapture(): TempCapture {
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-open-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    file: join(dir, 'capture.db'),
    remove: () => {
      process.removeListener('exit', remove);
      remove();
    },
  };
}

/** An export, imported into a temporary capture file, then read in place like a capture database. */
async function imported(file: string): Promise<{ capture: ReadOnlyCapture; report: ImportReport; temp: TempCapture }> {
  const temp = tempCapture();
  try {
    const store = new CaptureStore(temp.file);
    // In process: a one-off import needs no engine thread (a live capture's reason for one).
    const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' });
    let report: ImportReport;
    try {
      report = await streamImport(createReadStream(file), basename(file), Infinity, () => pipeline.startImport());
    } finally {
      pipeline.close();
      store.close();
    }
    return { capture: openReadOnly(temp.file), report, temp };
  } catch (err) {
    temp.remove();
    throw err;
  }
}

/** What went wrong opening `file`, in words. */
function openMessage(file: string, err: unknown, database: boolean): string {
  if (database) return databaseMessage(file, err);
  if (err instanceof InspectorError) return err.message.startsWith(file) ? err.message : `${file}: ${err.message}`;
  return `cannot read ${file}: ${(err as Error).message}`;
}
