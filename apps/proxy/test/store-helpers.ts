/**
 * Builders for the store tests: temporary capture files and table snapshots (a child mcpscope on
 * a file: support/mcpscope.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameInput } from '@mcpscope/protocol';
import { openSqlite, type SqliteDatabase } from '../src/capture/sqlite.js';

export function tempDbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpscope-store-')), 'capture.db');
}

/** Every row of the derived tables, in key order, for comparing two states of a capture file. */
export function snapshotDerived(file: string): Record<string, unknown[]> {
  const db = openSqlite(file, { readonly: true });
  try {
    return derivedRows(db);
  } finally {
    db.close();
  }
}

/** Every row of the derived tables, in key order, as a connection reads them (an in-memory store's). */
export function derivedRows(db: SqliteDatabase): Record<string, unknown[]> {
  return {
    exchanges: db.prepare('SELECT * FROM exchanges ORDER BY id').all(),
    sessions: db.prepare('SELECT * FROM sessions ORDER BY session_key').all(),
    diagnostics: db.prepare('SELECT * FROM diagnostics ORDER BY id').all(),
    frame_exchanges: db.prepare('SELECT * FROM frame_exchanges ORDER BY frame_seq, exchange_id').all(),
    conversations: db.prepare('SELECT * FROM conversations ORDER BY key').all(),
  };
}

/** Calls that stay in flight across every restart point, progress, a cancel, errors, two sessions. */
export function traffic(): FrameInput[] {
  const out: FrameInput[] = [];
  const add = (sessionKey: string, direction: FrameInput['direction'], body: unknown, connectionId = `c${out.length}`) =>
    out.push({ ts: 1000 + out.length * 5, sessionKey, direction, transport: 'http-json', kind: 'data', raw: JSON.stringify(body), http: { method: 'POST', path: '/mcp', connectionId } });
  for (const s of ['s1', 's2']) {
    add(s, 'c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `client-${s}`, version: '1' } } });
    add(s, 's2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } });
    add(s, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    add(s, 's2c', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'suggest_gifts', inputSchema: { type: 'object', properties: { budget: { type: 'number' } }, required: ['budget'] } }] } });
  }
  for (let i = 2; i < 40; i++) {
    const s = i % 2 ? 's1' : 's2';
    add(s, 'c2s', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: i % 7 ? 'suggest_gifts' : 'ghost', arguments: i % 5 ? { budget: i } : {}, _meta: { progressToken: `p${i}` } } });
    if (i > 4) {
      const j = i - 3; // answers lag behind, so calls are in flight at every cut
      const js = j % 2 ? 's1' : 's2';
      add(js, 's2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: `p${j}`, progress: 1 } });
      if (j % 9 === 0) add(js, 'c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: j } });
      add(js, 's2c', j % 4 ? { jsonrpc: '2.0', id: j, result: { content: [{ type: 'text', text: `idea ${j}` }] } } : { jsonrpc: '2.0', id: j, error: { code: -32602, message: 'no' } });
    }
  }
  return out;
}
