/**
 * Black-box helpers for the reliability suite: start the real mcpscope, talk to its tap with raw
 * HTTP, and read what it captured through the dashboard API (the contract other parts may not
 * break), never through its internals.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExchangeDetail, ExchangeSummary, FrameView } from '@mcpscope/protocol';
import type { Mcpscope, StartOptions } from '../../src/compose/start-mcpscope.js';
import { startTestMcpscope } from '../support/mcpscope.js';
import { apiGet as api, type ApiTarget } from '../support/api.js';

export async function startProxy(target: string, options: StartOptions = {}): Promise<Mcpscope> {
  return startTestMcpscope({ target, ...options });
}

export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpscope-rel-')), 'capture.db');
}

export { apiGet as api } from '../support/api.js';

/** Every stored frame after `after`, page by page (list bodies may be cut; `size` is whole). */
export async function framesAfter(app: ApiTarget, after = 0): Promise<FrameView[]> {
  const out: FrameView[] = [];
  for (let page = 0; page < 10_000; page++) {
    const { frames } = await api<{ frames: FrameView[] }>(app, `/api/frames?after=${after}&limit=1000`);
    if (frames.length === 0) break;
    out.push(...frames);
    after = frames[frames.length - 1]!.seq;
  }
  return out;
}

export async function exchanges(app: ApiTarget): Promise<ExchangeSummary[]> {
  return (await api<{ exchanges: ExchangeSummary[] }>(app, '/api/exchanges?limit=100000')).exchanges;
}

export async function exchangeDetail(app: ApiTarget, id: string): Promise<ExchangeDetail> {
  return api<ExchangeDetail>(app, `/api/exchanges/${encodeURIComponent(id)}`);
}

/**
 * Polls until `check` returns a value (not undefined), bounded by a deadline: capture is
 * asynchronous by design (the tap never waits for the disk), so tests wait for the effect.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Frames of the exchange whose request carried JSON-RPC id `rpcId`, once it has `count` frames. */
export async function framesOfCall(app: ApiTarget, rpcId: number | string, count: number): Promise<{ exchange: ExchangeSummary; frames: FrameView[] }> {
  return eventually(async () => {
    const ex = (await exchanges(app)).find((e) => e.rpcId === rpcId && e.requester === 'client');
    if (!ex || ex.frameSeqs.length < count) return undefined;
    const detail = await exchangeDetail(app, ex.id);
    return { exchange: detail.exchange, frames: detail.frames };
  }, `exchange with id ${rpcId} to have ${count} frames`);
}

let nextId = 1000;
/** A fresh JSON-RPC id, unique within the test process. */
export const rpcId = () => ++nextId;

export function toolCall(id: number, name: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: `progress-${id}` } } });
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export async function post(url: string, body: string | Uint8Array, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: MCP_HEADERS, body, ...init });
}

/** A response is "well formed" for a JSON-RPC client when it is JSON-RPC or an HTTP error it can read. */
export function isJsonRpcError(value: unknown, id: unknown): boolean {
  const v = value as { jsonrpc?: string; id?: unknown; error?: { code?: unknown; message?: unknown } };
  return v?.jsonrpc === '2.0' && v.id === id && typeof v.error?.code === 'number' && typeof v.error.message === 'string';
}
