/**
 * Shared by the store and hub benchmarks: the row shape `pnpm bench` collects (bench/report.ts),
 * temporary capture files, and a realistic stream of frames (tool
 * calls with arguments and answers, some failing, over many sessions) generated without I/O.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExchangeSummary, Frame, FrameInput } from '@mcpscope/protocol';

export type { BenchOptions as StoreBenchOptions, BenchRow as StoreBenchRow } from './report.js';

export function tempDb(name: string): string {
  return join(mkdtempSync(join(tmpdir(), `mcpscope-bench-${name}-`)), 'capture.db');
}

export function medianSpread(values: number[]): { min: number; median: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor((s.length - 1) / 2)]!, max: s[s.length - 1]! };
}

const TOOLS = ['suggest_gifts', 'wrap_gift', 'search_docs', 'get_weather', 'create_issue', 'list_files', 'run_query', 'send_email'];

/**
 * Frame `n` (0-based): even frames are requests, odd frames answer the request `lag` requests
 * back (with `lag` > 0 answers land in later ticks than their requests, as on a real tap, so an
 * exchange is written twice); before that, odd frames are notifications.
 */
export function frameInput(n: number, lag = 0): FrameInput {
  if ((n & 1) === 1 && (n >> 1) < lag) {
    const raw = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `warming up ${n}` } });
    return { ts: 1_700_000_000_000 + n * 2, sessionKey: `session-00-${'f'.repeat(24)}`, direction: 's2c', transport: 'http-json', kind: 'data', raw };
  }
  const i = (n & 1) === 1 ? (n >> 1) - lag : n >> 1;
  const sessionKey = `session-${(i % 20).toString().padStart(2, '0')}-${'f'.repeat(24)}`;
  const ts = 1_700_000_000_000 + n * 2;
  const http = { method: 'POST', path: '/mcp', connectionId: `h${i}` };
  if ((n & 1) === 0) {
    const raw = JSON.stringify({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: TOOLS[i % TOOLS.length], arguments: { query: `request number ${i} about gifts and weather`, limit: i % 50, tags: ['a', 'b', 'c'] } },
    });
    return { ts, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw, http };
  }
  const raw =
    i % 10 === 3
      ? JSON.stringify({ jsonrpc: '2.0', id: i, error: { code: -32602, message: `Invalid arguments for ${TOOLS[i % TOOLS.length]}: limit must be ≤ 40` } })
      : JSON.stringify({ jsonrpc: '2.0', id: i, result: { isError: i % 20 === 7, content: [{ type: 'text', text: `Result ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}` }] } });
  return { ts: ts + (i % 1000), sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', raw, http: { ...http, status: 200 } };
}

/** The exchange a request/answer pair derives, built directly (for generating big stores fast). */
export function exchangeFor(request: Frame, answer: Frame): ExchangeSummary {
  const req = JSON.parse(request.raw) as { id: number; params: { name: string } };
  const res = JSON.parse(answer.raw) as { error?: { code: number; message: string }; result?: { isError: boolean } };
  const ex: ExchangeSummary = {
    id: String(request.seq),
    sessionKey: request.sessionKey,
    requester: 'client',
    direction: 'c2s',
    kind: 'request',
    method: 'tools/call',
    target: req.params.name,
    rpcId: req.id,
    status: res.error ? 'protocol_error' : res.result?.isError ? 'business_error' : 'ok',
    startTs: request.ts,
    endTs: answer.ts,
    latencyMs: answer.ts - request.ts,
    requestSeq: request.seq,
    responseSeq: answer.seq,
    frameSeqs: [request.seq, answer.seq],
    size: request.raw.length + answer.raw.length,
    diagnostics: 0,
    updatedSeq: answer.seq,
  };
  if (res.error) {
    ex.errorCode = res.error.code;
    ex.errorMessage = res.error.message;
  }
  return ex;
}
