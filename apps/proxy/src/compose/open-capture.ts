/**
 * `mcpscope open FILE`: the dashboard over a capture file, with no tap and no upstream. The file
 * (mcpscope JSONL, a HAR, or a capture database) is imported into an in-memory store through the
 * capture pipeline, so its exchanges are derived by today's code, and the file itself is never
 * written to. Its sessions are marked imported, so nothing offers to send on them.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { CaptureStore } from '../capture/capture-store.js';
import { CapturePipeline } from '../capture/capture-pipeline.js';
import { doorIds, importRequests, relinked } from '../capture/capture-import.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { CaptureReader } from '../capture/capture-reader.js';
import { LiveHub } from '../hub/live-hub.js';
import { startDashboardListener } from './dashboard-listener.js';
import { agentEndpoint } from './agent-endpoint.js';
import { isSqliteFile } from './capture-file.js';
import { streamImport } from '../interchange/import-stream.js';
import { InspectorError } from '../core/errors.js';
import { importedSessionKey, type ImportReport } from '@mcpscope/protocol';
import { WIDGET_LINK } from '../capture/replay-links.js';
import { WidgetCatalog } from '../widget-host/widget-catalog.js';
import { WidgetService } from '../widget-host/widget-service.js';
import { WidgetFiles } from '../widget-host/widget-files.js';

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
  store: CaptureStore;
  close(): Promise<void>;
}

export type OpenResult = { ok: true; value: OpenedCapture } | { ok: false; message: string };

export async function openCapture(options: OpenOptions): Promise<OpenResult> {
  const name = basename(options.file);
  const store = new CaptureStore(':memory:');
  const pipeline = new CapturePipeline(store);
  let report: ImportReport;
  try {
    if (isSqliteFile(options.file)) {
      const source = CaptureReader.openFile(options.file);
      const sessions = new Set<string>();
      let frames = 0;
      let doorRecords = 0;
      let linkCount = 0;
      try {
        // The HTTP requests at the door come along, renamed and re-linked like the frames.
        const requests = [...source.requests()].map((r) => ({
          ...r,
          ...(r.sessionKey !== undefined ? { sessionKey: importedSessionKey(name, r.sessionKey) } : {}),
          ...(r.mcpSessionId !== undefined ? { mcpSessionId: importedSessionKey(name, r.mcpSessionId) } : {}),
        }));
        const idOf = doorIds(pipeline, requests);
        const seqOf = new Map<number, number>();
        const links = source.replayLinks.all();
        const restoreLinks = store.replayLinks.restorer(links);
        for (const { seq, ...frame } of source.select()) {
          const sessionKey = importedSessionKey(name, frame.sessionKey);
          sessions.add(sessionKey);
          seqOf.set(seq, pipeline.record(relinked({ ...frame, sessionKey }, idOf)));
          restoreLinks(seq, seqOf);
          if (++frames % 5000 === 0) pipeline.flush();
        }
        importRequests(pipeline, requests, (original) => seqOf.get(original), idOf);
        pipeline.marks.importAll(source.marks.list(), seqOf, 0);
        doorRecords = requests.length;
        linkCount = store.replayLinks.all().length;
      } finally {
        source.close();
      }
      report = { format: 'mcpscope-db', name, frames, sessionKeys: [...sessions], skipped: 0, problems: [], ...(doorRecords > 0 ? { requests: doorRecords } : {}), ...(linkCount > 0 ? { links: linkCount } : {}) };
    } else {
      report = await streamImport(createReadStream(options.file), name, Infinity, () => pipeline.startImport());
    }
  } catch (err) {
    store.close();
    if (err instanceof InspectorError) return { ok: false, message: `${options.file}: ${err.message}` };
    return { ok: false, message: `cannot read ${options.file}: ${(err as Error).message}` };
  }
  pipeline.flush();
  const hub = new LiveHub(store, pipeline);
  // Local widget files the user names in the playground (no --widget-file here: the file is read-only data).
  const widgetFiles = new WidgetFiles();
  const dashboard = await startDashboardListener({
    services: { store, query: new CaptureQuery(store), hub, exports: { source: store, startImport: () => pipeline.startImport() }, agentMcp: agentEndpoint(store, undefined), capture: { status: () => ({ state: 'recording', notRecorded: { frames: 0, requests: 0 }, readOnly: { file: name } }), marks: () => store.marks.list() } },
    // Widgets render from the file; with no upstream, what they send is refused.
    widgets: new WidgetService({ catalog: new WidgetCatalog(store), linkMode: WIDGET_LINK, files: widgetFiles }),
    widgetFiles,
    port: options.uiPort ?? 0,
    ...(options.uiHost !== undefined ? { host: options.uiHost } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.webRoot !== undefined ? { webRoot: options.webRoot } : {}),
  });
  return {
    ok: true,
    value: {
      dashboardUrl: dashboard.url,
      dashboardLoginUrl: dashboard.loginUrl,
      token: dashboard.token,
      report,
      store,
      close: async () => {
        hub.close();
        await dashboard.close();
        pipeline.close();
        store.close();
      },
    },
  };
}
