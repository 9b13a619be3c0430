// The filter bar's text read for door records: request fields filter requests; a filter carried
// over from the Exchanges view (fields only exchanges have) is not applied, and says so.
import { describe, expect, it } from 'vitest';
import type { DoorRecord } from '@mcpscope/protocol';
import { buildDoorFilter } from './door-filter.js';

function record(path: string, status = 200): DoorRecord {
  return { id: 1, rev: 1, ts: 1, method: 'POST', path, status, answer: 'upstream', end: 'complete', requestHeaders: {}, responseHeaders: {}, requestBytes: 0, responseBytes: 0, peer: { address: '127.0.0.1', connection: 1 } };
}

describe('the door filter', () => {
  it('applies request fields', () => {
    const f = buildDoorFilter('http.status>399');
    expect([record('/mcp', 200), record('/mcp', 401)].map(f.predicate)).toEqual([false, true]);
    expect(f.description).toMatch(/HTTP status/);
  });

  it('leaves out an exchange filter it cannot evaluate, and says which fields', () => {
    const f = buildDoorFilter('method:tools/call !tool:x');
    expect(f.predicate(record('/mcp'))).toBe(true);
    expect(f.description).toBe('every request (not applied here: method:, tool: filter exchanges, not HTTP requests)');
    expect(buildDoorFilter('status:err').description).toBe('every request (not applied here: status: filters exchanges, not HTTP requests)');
  });
});
