// Replay's header filters (issue 22, item 8): a captured record may spell names in any case (a
// file written by another tool, a capture from before import lower-cased them); the headers that
// describe the captured connection, or that replay computes itself, stay out however they are
// spelled, and what is not a header is not sent.
import { describe, expect, it } from 'vitest';
import { wireHeaders } from '../src/upstream/wire-headers.js';

const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } };

describe('wireHeaders', () => {
  it('keeps out Host, X-Forwarded-*, a captured Mcp-Session-Id and Content-Length in any case, and non-headers', () => {
    const { headers } = wireHeaders(message, {
      captured: { Host: 'evil.test', 'X-Forwarded-For': '6.6.6.6', 'MCP-SESSION-ID': 'attacker-chosen', 'Content-Length': '1', 'X-Note': 'kept', 'x-$(id)': 'v', 'X-Split': 'a\r\nInjected: 1' },
      credentials: { Authorization: 'Bearer real' },
      sessionId: 'live-session',
      protocolVersion: '2025-06-18',
    });
    expect(headers).toEqual({
      'x-note': 'kept',
      authorization: 'Bearer real',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'live-session',
      'mcp-protocol-version': '2025-06-18',
    });
  });

  it('keeps out the headers the captured Connection header named (RFC 9110 §7.6.1), in any case', () => {
    const { headers } = wireHeaders(message, {
      captured: { Connection: 'keep-alive, X-Hop-Token, x-trace-hop', 'x-hop-token': 'for-the-first-hop', 'X-Trace-Hop': '1', 'x-end-to-end': 'kept' },
      credentials: {},
    });
    expect(headers['x-hop-token']).toBeUndefined();
    expect(headers['x-trace-hop']).toBeUndefined();
    expect(headers['x-end-to-end']).toBe('kept');
  });
});
