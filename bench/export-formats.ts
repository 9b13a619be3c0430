/**
 * Export and import speed on a synthetic capture (tools/call over JSON and SSE with progress,
 * bodies with secrets to redact). The baseline, measured in the same run, is the cheapest possible
 * "export": read every frame from SQLite and JSON.stringify it. Ratios say what each format costs
 * on top of that. Run alone: `node --import tsx bench/export-formats.ts [frames]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../apps/proxy/src/capture/capture-store.js';
import { CapturePipeline } from '../apps/proxy/src/capture/capture-pipeline.js';
import type { CaptureReader } from '../apps/proxy/src/capture/capture-reader.js';
import { buildExport, type ExportRequest } from '../apps/proxy/src/interchange/export-service.js';
import { importCapture } from '../apps/proxy/src/interchange/importer.js';
import { fmt, printTable, spread } from './stats.js';

const ROUNDS = 3;

function synthetic(frames: number): FrameInput[] {
  const out: FrameInput[] = [];
  let ts = Date.now() - frames;
  for (let id = 1; out.length < frames; id++) {
    const conn = `h${id}`;
    const reqHttp = { method: 'POST', path: '/mcp', connectionId: conn, requestHeaders: { host: '127.0.0.1:7788', 'content-type': 'application/json', 'mcp-session-id': 'S1' } };
    const resHttp = { method: 'POST', path: '/mcp', connectionId: conn, status: 200, responseHeaders: { 'content-type': 'text/event-stream' } };
    out.push({ ts: ts++, sessionKey: 'S1', direction: 'c2s', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: id % 300, api_key: `ak-${id}-secret-value`, note: 'x'.repeat(200) }, _meta: { progressToken: id } } }), http: reqHttp });
    out.push({ ts: ts++, sessionKey: 'S1', direction: 's2c', transport: 'sse', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 1 } }), http: { ...resHttp, sseEvent: 'message' } });
    out.push({ ts: ts++, sessionKey: 'S1', direction: 's2c', transport: 'sse', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `Gift ideas for ${id}: ${'y'.repeat(300)}` }] } }), http: { ...resHttp, sseEvent: 'message' } });
  }
  return out.slice(0, frames);
}

function time(fn: () => number): { ms: number; bytes: number } {
  const t = performance.now();
  const bytes = fn();
  return { ms: performance.now() - t, bytes };
}

function drain(source: CaptureReader, req: ExportRequest): number {
  const out = buildExport(source, req);
  if (!out.ok) throw new Error(out.message);
  let bytes = 0;
  for (const chunk of out.chunks) bytes += chunk.length;
  return bytes;
}

export async function benchExportFormats(frameCount = 30_000) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-export-'));
  const store = new CaptureStore(join(dir, 'capture.db'));
  const pipeline = new CapturePipeline(store);
  for (const f of synthetic(frameCount)) pipeline.record(f);
  pipeline.flush();
  const source = store;
  const jsonl = buildExport(source, { format: 'jsonl', unredacted: true });
  const har = buildExport(source, { format: 'har', unredacted: true });
  if (!jsonl.ok || !har.ok) throw new Error('export failed');
  const jsonlText = [...jsonl.chunks].join('');
  const harText = [...har.chunks].join('');
  const intoStore = (text: string, name: string) => {
    const result = importCapture(text, name);
    if (!result.ok) throw new Error(result.problem.message);
    const target = new CaptureStore(':memory:');
    const p = new CapturePipeline(target);
    for (const f of result.frames) p.record(f);
    p.flush();
    const n = target.head();
    target.close();
    return n;
  };
  const cases: [string, () => number][] = [
    ['baseline: read + JSON.stringify', () => { let n = 0; for (const f of source.select()) n += JSON.stringify(f).length; return n; }],
    ['JSONL, unredacted', () => drain(source, { format: 'jsonl', unredacted: true })],
    ['JSONL, redacted (2 passes)', () => drain(source, { format: 'jsonl' })],
    ['HAR, redacted', () => drain(source, { format: 'har' })],
    ['import JSONL → derive → store', () => intoStore(jsonlText, 'b.jsonl')],
    ['import HAR → derive → store', () => intoStore(harText, 'b.har')],
  ];
  const results = cases.map(([name, fn]) => {
    const runs = Array.from({ length: ROUNDS }, () => time(fn));
    return { name, ms: spread(runs.map((r) => r.ms)) };
  });
  const base = results[0]!.ms.median;
  printTable(
    `Export / import of ${frameCount} frames (median of ${ROUNDS}; ratio vs baseline read)`,
    ['case', 'median ms', 'min–max ms', 'frames/s', 'ratio'],
    results.map((r) => [r.name, fmt(r.ms.median, 0), `${fmt(r.ms.min, 0)}–${fmt(r.ms.max, 0)}`, fmt(frameCount / (r.ms.median / 1000), 0), fmt(r.ms.median / base, 1)]),
  );
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return { frames: frameCount, results };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExportFormats(Number(process.argv[2]) || undefined);
