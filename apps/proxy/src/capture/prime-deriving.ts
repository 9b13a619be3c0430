/**
 * Derives made-up sessions (initialize, tools/list, tools/call, each answered), one for each MCP
 * revision and one that never initializes, on a throwaway deriver, so the schema validators those
 * messages need are compiled (once per revision and definition: validate/schema-validator.ts), and
 * the deriving code is optimized, before a thread derives real traffic. The validators are shared by every deriver
 * (deriver.ts), so what this compiles stays compiled. The engine's worker runs it while it starts
 * (engine-worker.ts), so its first real tick costs what any tick costs; nothing of it is stored.
 */
import { REVISIONS, type Frame, type Revision } from '@mcpscope/protocol';
import { createDeriver } from './deriver.js';
import { derive } from './capture-engine.js';

/** A made-up session of `revision` (none: it never initializes), as the tap would have recorded it over Streamable HTTP. */
function madeUpSession(revision: Revision | undefined, firstSeq: number): Frame[] {
  const initialize: [Frame['direction'], unknown][] = revision
    ? [
        ['c2s', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'prime', version: '1' } } }],
        ['s2c', { jsonrpc: '2.0', id: 1, result: { protocolVersion: revision, capabilities: { tools: {} }, serverInfo: { name: 'prime', version: '1' } } }],
        ['c2s', { jsonrpc: '2.0', method: 'notifications/initialized' }],
      ]
    : [];
  const messages: [Frame['direction'], unknown][] = [
    ...initialize,
    ['c2s', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
    ['s2c', { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] } }],
    ['c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }],
    ['s2c', { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'hi' }] } }],
    ['c2s', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: {} } }],
    ['s2c', { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'text is required' } }],
  ];
  return messages.map(([direction, body], i) => ({
    seq: firstSeq + i,
    ts: firstSeq + i,
    sessionKey: `prime-${revision ?? 'uninitialized'}`,
    direction,
    transport: 'http-json',
    kind: 'data',
    raw: JSON.stringify(body),
    http: { method: 'POST', path: '/mcp', ...(direction === 's2c' ? { status: 200 } : {}), connectionId: `prime-${firstSeq + (i >> 1)}` },
  }));
}

/** Compiles and warms what deriving the usual traffic needs (a few ms, once per thread). */
export function primeDeriving(): void {
  const frames: Frame[] = [];
  for (const revision of [undefined, ...REVISIONS]) frames.push(...madeUpSession(revision, frames.length + 1));
  // Twice: once to compile, once more so the hot paths are seen again (V8 optimizes what repeats).
  for (let round = 0; round < 2; round++) derive(createDeriver(), frames);
}
