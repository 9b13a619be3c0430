// Frames as the tap records them for the hosts conversations are about: ChatGPT's connector (a new
// session per tool call, `_meta["openai/session"]` on calls, optionally a server/discover probe
// before each session that a legacy server refuses) and an SDK client with one long session.
// Each script keeps its own order; tests interleave scripts as concurrent hosts would.
import type { Frame } from '../../src/index.js';

export type Step = Omit<Frame, 'seq' | 'ts'>;

const json = (v: unknown) => JSON.stringify(v);
let connections = 0;
const conn = () => `h${++connections}`;

export interface ChatGptOptions {
  /** `_meta["openai/session"]`: the host's conversation id. */
  hostId?: string;
  /** A salted credential fingerprint the tap would record. */
  credential?: string;
  /** Probe with server/discover before each session (the legacy server answers 400). */
  probe?: boolean;
  tool?: string;
}

const UA = 'openai-mcp/1.0.0';

/** One ChatGPT tool call: [probe,] initialize, initialized, tools/list, tools/call — in a session of its own. */
export function chatgptCall(sessionKey: string, o: ChatGptOptions = {}): Step[] {
  const headers = (extra: Record<string, string> = {}) => ({ 'user-agent': UA, ...extra });
  const http = (c: string, h?: Record<string, string>) => ({ method: 'POST', path: '/mcp', connectionId: c, requestHeaders: headers(h), ...(o.credential ? { credential: o.credential } : {}) });
  const steps: Step[] = [];
  const meta = { 'openai/locale': 'en-US', 'openai/userAgent': 'Mozilla/5.0', ...(o.hostId ? { 'openai/session': o.hostId, 'openai/subject': 'v1/subject' } : {}) };
  if (o.probe) {
    const c = conn();
    const probeKey = `client:${UA} openai-mcp/1.0.0`;
    steps.push({ sessionKey: probeKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: json({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'openai-mcp', version: '1.0.0' } } } }), http: http(c, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }) });
    steps.push({ sessionKey: probeKey, direction: 's2c', transport: 'http-json', kind: 'data', raw: json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }), http: { method: 'POST', path: '/mcp', connectionId: c, status: 400 } });
  }
  const push = (direction: Frame['direction'], body: unknown, c: string, status?: number) =>
    steps.push({ sessionKey, direction, transport: direction === 's2c' ? 'sse' : 'http-json', kind: 'data', raw: json(body), http: direction === 'c2s' ? http(c) : { method: 'POST', path: '/mcp', connectionId: c, ...(status ? { status } : { status: 200 }) } });
  let c = conn();
  push('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1.0.0' }, _meta: { 'openai/locale': 'en-US' } } }, c);
  push('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'srv', version: '1' } } }, c);
  push('c2s', { jsonrpc: '2.0', method: 'notifications/initialized' }, conn());
  c = conn();
  push('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, c);
  push('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }] } }, c);
  c = conn();
  push('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: o.tool ?? 'echo', arguments: { message: 'hi' }, _meta: meta } }, c);
  push('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Echo: hi' }] } }, c);
  return steps;
}

/** An SDK client's one long session: initialize, then `calls` tool calls in the same session. */
export function sdkSession(sessionKey: string, name: string, calls: number): Step[] {
  const steps: Step[] = [];
  const push = (direction: Frame['direction'], body: unknown, c: string) =>
    steps.push({ sessionKey, direction, transport: 'http-json', kind: 'data', raw: json(body), http: { method: 'POST', path: '/mcp', connectionId: c, ...(direction === 'c2s' ? { requestHeaders: { 'user-agent': 'node' } } : { status: 200 }) } });
  let c = conn();
  push('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } } }, c);
  push('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } }, c);
  c = conn();
  push('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, c);
  push('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } }, c);
  for (let i = 0; i < calls; i++) {
    c = conn();
    push('c2s', { jsonrpc: '2.0', id: 2 + i, method: 'tools/call', params: { name: 'echo', arguments: { message: String(i) } } }, c);
    push('s2c', { jsonrpc: '2.0', id: 2 + i, result: { content: [{ type: 'text', text: `Echo: ${i}` }] } }, c);
  }
  return steps;
}

/** Numbers steps as the store would: seq from 1, time from `t0` in `gap` ms steps. */
export function numbered(steps: Step[], t0 = 1_000_000, gap = 5): Frame[] {
  return steps.map((s, i) => ({ ...s, seq: i + 1, ts: t0 + i * gap }));
}

/**
 * Stamps each initialize request with the time it arrived, `lags[i]` steps before it was recorded:
 * the tap records a stateful server's initialize only once the answer names the session, so under
 * concurrency it lands after frames of other sessions that came in later (request-recorder.ts).
 */
export function arrivedEarlier(frames: Frame[], lags: readonly number[], gap = 5): Frame[] {
  let i = 0;
  return frames.map((f) => (f.direction === 'c2s' && f.raw.includes('"method":"initialize"') ? { ...f, ts: f.ts - (lags[i++ % lags.length] ?? 0) * gap } : f));
}

/** Merges scripts in the order `picks` chooses (index of the script to take the next step from). */
export function interleave(scripts: Step[][], picks: readonly number[]): Step[] {
  const at = scripts.map(() => 0);
  const out: Step[] = [];
  for (const pick of picks) {
    for (let k = 0; k < scripts.length; k++) {
      const s = (pick + k) % scripts.length;
      if (at[s]! < scripts[s]!.length) {
        out.push(scripts[s]![at[s]!++]!);
        break;
      }
    }
  }
  scripts.forEach((script, s) => out.push(...script.slice(at[s])));
  return out;
}
