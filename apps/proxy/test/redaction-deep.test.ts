// A frame nested far deeper than a call stack is redacted like any other: an export that failed
// on it (500, CLI exit 1) left only the unredacted export, which nudges users to leak.
import { describe, expect, it } from 'vitest';
import type { DoorRecord, Frame } from '@mcpscope/protocol';
import { Redactor } from '../src/redaction/export-redaction.js';
import { redactDoorRecord } from '../src/redaction/door-redaction.js';
import { shownUrl } from '../src/redaction/redact-secrets.js';

const DEPTH = 100_000;

function deepFrame(leaf: string): Frame {
  const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":${'['.repeat(DEPTH)}${leaf}${']'.repeat(DEPTH)}}}}`;
  return { seq: 1, ts: 0, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw };
}

describe('redaction of very deep frames', () => {
  it('redacts a password 100,000 levels down and writes the rest back unchanged', () => {
    const frame = deepFrame('{"password":"pw-deep-9999secret","keep":"visible"}');
    const out = new Redactor({ enabled: true }).frame(frame);
    expect(out.raw).not.toContain('pw-deep-9999secret');
    expect(out.raw).toBe(frame.raw.replace('pw-deep-9999secret', '[redacted]'));
  });

  it('keeps the raw text byte for byte when nothing deep is secret', () => {
    const frame = deepFrame('{"note":"nothing here"}');
    expect(new Redactor({ enabled: true }).frame(frame).raw).toBe(frame.raw);
  });

  it('redacts the user\'s JSON paths and keys in deep frames too', () => {
    const frame = deepFrame('{"card":"card-4242424242"}');
    const out = new Redactor({ enabled: true, extra: ['$.params.name', 'card'] }).frame(frame);
    expect(out.raw).toBe(frame.raw.replace('"name":"t"', '"name":"[redacted]"').replace('card-4242424242', '[redacted]'));
  });
});

// Captures made before the capture redacted URL headers (or imported from elsewhere) still hold
// a Referer's token or a Location's code: the export's own pass takes them out.
describe('URL headers in an export', () => {
  it("redacts a Referer's and a Location's credentials in frames and door records, and keeps the rest of each URL", () => {
    const redactor = new Redactor({ enabled: true });
    const http = redactor.http({
      method: 'POST',
      path: '/mcp',
      requestHeaders: { referer: 'http://localhost:6274/?MCP_PROXY_AUTH_TOKEN=tok-ref-1234&transport=sse', accept: 'application/json' },
      responseHeaders: { location: 'https://chatgpt.com/connector/oauth/cb?code=code-loc-5678&state=s1' },
    });
    expect(http.requestHeaders).toEqual({ referer: `http://localhost:6274/?MCP_PROXY_AUTH_TOKEN=${encodeURIComponent('[redacted]')}&transport=sse`, accept: 'application/json' });
    expect(http.responseHeaders!.location).toBe(`https://chatgpt.com/connector/oauth/cb?code=${encodeURIComponent('[redacted]')}&state=s1`);
    const record: DoorRecord = {
      id: 1,
      rev: 1,
      ts: 0,
      method: 'GET',
      path: '/authorize',
      status: 302,
      answer: 'upstream',
      end: 'complete',
      requestHeaders: { Referer: 'https://chatgpt.com/?access_token=tok-door-9999' },
      responseHeaders: { location: 'https://chatgpt.com/cb?code=code-door-4321' },
      requestBytes: 0,
      responseBytes: 0,
      peer: { address: '127.0.0.1', connection: 1 },
    };
    const exported = redactDoorRecord(redactor, record);
    expect(JSON.stringify(exported)).not.toMatch(/tok-door-9999|code-door-4321/);
    expect(exported.responseHeaders.location).toBe(`https://chatgpt.com/cb?code=${encodeURIComponent('[redacted]')}`);
  });
});

describe('a server URL shown to a person', () => {
  it('loses its user, password and secret query values, and keeps the rest', () => {
    expect(shownUrl('http://alice:s3cret@localhost:3000/mcp?api_key=abc123&v=2')).toBe(`http://localhost:3000/mcp?api_key=${encodeURIComponent('[redacted] (6 chars)')}&v=2`);
    expect(shownUrl('http://localhost:3000/mcp')).toBe('http://localhost:3000/mcp');
    expect(shownUrl('stdio: node server.js')).toBe('stdio: node server.js');
  });
});
