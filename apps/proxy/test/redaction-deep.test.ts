// A frame nested far deeper than a call stack is redacted like any other: an export that failed
// on it (500, CLI exit 1) left only the unredacted export, which nudges users to leak.
import { describe, expect, it } from 'vitest';
import type { Frame } from '@mcpscope/protocol';
import { Redactor } from '../src/redaction/export-redaction.js';

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
