/**
 * A small mcpscope JSONL capture for verify and mock tests: one legacy session (initialize, then
 * the given tools/call exchanges, each answered ok), written to a file of the caller's.
 */
import { writeFileSync } from 'node:fs';

const t0 = Date.parse('2026-03-01T10:00:00.000Z');

export interface CapturedCall {
  tool: string;
  text: string;
}

export function writeToolCallCapture(path: string, calls: CapturedCall[]): string {
  const bodies: { direction: 'c2s' | 's2c'; body: object }[] = [
    { direction: 'c2s', body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-client', version: '1' } } } },
    { direction: 's2c', body: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } } },
    { direction: 'c2s', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  ];
  calls.forEach((c, i) => {
    bodies.push({ direction: 'c2s', body: { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: c.tool, arguments: {} } } });
    bodies.push({ direction: 's2c', body: { jsonrpc: '2.0', id: i + 1, result: { content: [{ type: 'text', text: c.text }] } } });
  });
  const header = { format: 'mcpscope-jsonl', version: 1, exportedAt: new Date(t0).toISOString(), generator: 'test', redaction: { enabled: true, rules: [] } };
  const lines = bodies.map((f, i) => JSON.stringify({ seq: i + 1, ts: t0 + i * 10, sessionKey: 'S', direction: f.direction, transport: 'http-json', kind: 'data', raw: JSON.stringify(f.body), http: { method: 'POST', path: '/mcp', connectionId: `h${i}` } }));
  writeFileSync(path, [JSON.stringify(header), ...lines].join('\n') + '\n');
  return path;
}
