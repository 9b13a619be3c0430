// A capture left on for days sees thousands of sessions, each listing the same tools. The deriver
// keeps the tool lists of the most recently used sessions only, and a session whose list it let go
// is no longer checked, never wrongly flagged.
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, type Frame } from '../../src/index.js';
import { MAX_SESSIONS } from '../../src/derive/tool-registry.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';

const validator = createValidator();
const weather = { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('tool lists across many sessions', () => {
  it(`keeps at most ${MAX_SESSIONS} sessions' tool lists, the recently used ones, and never flags a session it forgot`, () => {
    const d = new CaptureDeriver({ validator });
    const makers = new Map<string, ReturnType<typeof frameMaker>>();
    let seq = 0;
    const feed = (session: string, direction: Frame['direction'], body: unknown) => {
      if (!makers.has(session)) makers.set(session, frameMaker(session));
      return d.ingest({ ...makers.get(session)!(direction, body), seq: ++seq });
    };
    const open = (session: string) => {
      feed(session, 'c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
      feed(session, 's2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } });
      feed(session, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      feed(session, 's2c', { jsonrpc: '2.0', id: 1, result: { tools: [weather] } });
    };
    const call = (session: string, id: number, name: string, args: object) =>
      feed(session, 'c2s', { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }).diagnostics.map((x) => x.code);

    open('kept-busy');
    for (let i = 0; i < MAX_SESSIONS + 50; i++) {
      open(`s${i}`);
      // The first session stays in use, so it is never the least recently used.
      if (i % 100 === 0) expect(call('kept-busy', 10 + i, 'get_weather', { city: 'Paris' })).toEqual([]);
    }
    expect(d.snapshot().tools.length).toBeLessThanOrEqual(MAX_SESSIONS);
    // Recent and busy sessions are still checked...
    expect(call('kept-busy', 5000, 'get_wether', {})).toContain('phantom-tool');
    expect(call(`s${MAX_SESSIONS + 49}`, 2, 'get_weather', { city: 7 })).toContain('tool-arguments-invalid');
    // ...the oldest idle one was let go: its calls are not checked, and not wrongly flagged.
    expect(call('s0', 2, 'get_wether', { city: 7 })).toEqual([]);
  });
});
