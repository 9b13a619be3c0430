// A row that looks settled can still take one more frame: junk gets the server's id-null answer,
// a malformed answer gets the tap's transport frame when its body broke. The session's status
// counts and the row's diagnostics count must follow, never count the row twice or forget it.
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, type Derived, type Frame, type SessionSummary } from '../../src/index.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';

const validator = createValidator();

function session() {
  const d = new CaptureDeriver({ validator });
  const f = frameMaker();
  let latest: SessionSummary | undefined;
  const feed = (frame: Frame): Derived => {
    const out = d.ingest(frame);
    latest = out.sessions.at(-1) ?? latest;
    return out;
  };
  const on = (connectionId: string, status = 200) => ({ http: { method: 'POST', path: '/mcp', connectionId, status } });
  feed(f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, on('h0')));
  feed(f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }, on('h0')));
  return { d, f, feed, on, counts: () => latest!.counts };
}

describe('rows that take one more frame after they look settled', () => {
  it('junk answered by the server with id null stays one invalid row, keeping its own diagnostic', () => {
    const { f, feed, on, counts } = session();
    const junk = feed(f('c2s', '{"jsonrpc":"2.0","id":', on('h1')));
    expect(junk.exchanges[0]).toMatchObject({ status: 'invalid', diagnostics: 1 });
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, on('h1')));
    expect(answer.exchanges[0]).toMatchObject({ id: junk.exchanges[0]!.id, status: 'invalid', errorCode: -32700 });
    // The junk's invalid-message finding plus the id-null warning on the answer.
    expect(answer.exchanges[0]!.diagnostics).toBe(1 + answer.diagnostics.length);
    expect(counts()).toMatchObject({ ok: 1, invalid: 1 });
  });

  it('a malformed answer whose body then broke moves from invalid to transport_error, counted once', () => {
    const { f, feed, on, counts } = session();
    feed(f('c2s', { jsonrpc: '2.0', id: 5, method: 'tools/list' }, on('h2')));
    const cut = feed(f('s2c', '{"jsonrpc":"2.0","id":5,"result":{"tools":[', on('h2')));
    expect(cut.exchanges[0]).toMatchObject({ status: 'invalid' });
    expect(counts()).toMatchObject({ ok: 1, invalid: 1 });
    const broke = feed(f('s2c', '{"event":"stream-error","message":"the response body broke: ECONNRESET"}', { kind: 'transport', ...on('h2') }));
    expect(broke.exchanges[0]).toMatchObject({ id: cut.exchanges[0]!.id, status: 'transport_error' });
    expect(broke.exchanges[0]!.diagnostics).toBeGreaterThanOrEqual(1);
    expect(counts()).toEqual(expect.objectContaining({ ok: 1, transport_error: 1 }));
    expect(counts().invalid ?? 0).toBe(0);
  });
});
