import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { EXCHANGE_STATUSES } from '@mcpscope/protocol';
import { StatusBadge } from './StatusBadge.js';
import { STATUS_LOOKS, errorCodeName, formatDuration, formatSize, statusText } from './status.js';

describe('row status', () => {
  it('gives every status its own icon and its own word, so colour is never the only cue', () => {
    const icons = EXCHANGE_STATUSES.map((s) => STATUS_LOOKS[s].icon);
    const labels = EXCHANGE_STATUSES.map((s) => STATUS_LOOKS[s].label);
    expect(new Set(icons).size).toBe(EXCHANGE_STATUSES.length);
    expect(new Set(labels).size).toBe(EXCHANGE_STATUSES.length);
  });

  it('names the JSON-RPC code of a protocol error', () => {
    expect(statusText({ status: 'protocol_error', errorCode: -32602 })).toBe('-32602 Invalid params');
    expect(statusText({ status: 'protocol_error', errorCode: -32601 })).toBe('-32601 Method not found');
    expect(statusText({ status: 'protocol_error', errorCode: -32050 })).toBe('-32050 Server error');
    expect(statusText({ status: 'protocol_error', errorCode: 42 })).toBe('42 Application error');
    expect(statusText({ status: 'protocol_error' })).toBe('protocol error');
    expect(statusText({ status: 'protocol_error', errorCode: -32602, errorMessage: 'bad city' })).toBe('-32602 Invalid params');
    expect(statusText({ status: 'business_error', errorCode: -32602 })).toBe('tool error');
    expect(errorCodeName(-32700)).toBe('Parse error');
    expect(errorCodeName(-32000)).toBe('Server error');
  });

  it('reads an OAuth challenge as authorization required, not a transport error', () => {
    const auth = { status: 'transport_error' as const, transportEvent: 'authorization-required' as const, startTs: 0 };
    expect(statusText(auth)).toBe('authorization required');
    const badge = renderToStaticMarkup(<StatusBadge ex={auth} />);
    expect(badge).toContain('authorization required');
    expect(badge).toContain('data-event="authorization-required"');
    expect(badge).not.toContain('transport error');
  });

  it('reads a result a host rejects as a failure, not ok, and names the rule on the badge', () => {
    const rejected = { status: 'ok' as const, brokeHostRules: 'structured-content-invalid', startTs: 0 };
    expect(statusText(rejected)).toBe('rejected answer');
    const badge = renderToStaticMarkup(<StatusBadge ex={rejected} />);
    expect(badge).toContain('tone-error');
    expect(badge).toContain('data-broke="structured-content-invalid"');
    expect(badge).not.toContain('>ok<');
    expect(statusText({ status: 'ok' })).toBe('ok');
  });

  it('renders the badge as text, with a timer only while pending', () => {
    const pending = renderToStaticMarkup(<StatusBadge ex={{ status: 'pending', startTs: Date.now() - 1500 }} />);
    expect(pending).toContain('data-status="pending"');
    expect(pending).toMatch(/pending<\/span><span class="timer">1\.\d s</);
    const ok = renderToStaticMarkup(<StatusBadge ex={{ status: 'ok', startTs: 0 }} />);
    expect(ok).not.toContain('timer');
    // Captured text stays text: markup in an error message is escaped, never interpreted.
    const evil = renderToStaticMarkup(<StatusBadge ex={{ status: 'protocol_error', errorCode: -32603, errorMessage: '<img src=x onerror=alert(1)>', startTs: 0 }} />);
    expect(evil).not.toContain('<img');
  });

  it('formats durations and sizes compactly', () => {
    expect(formatDuration(0.42)).toBe('0.4 ms');
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(12_345)).toBe('12.3 kB');
  });
});

describe('a code with no fixed meaning', () => {
  it("shows the server's own message, never a name the server did not say", () => {
    expect(statusText({ status: 'protocol_error', errorCode: -32000, errorMessage: 'Bad Request: No valid session ID provided' })).toBe('-32000 Bad Request: No valid session ID provided');
    expect(statusText({ status: 'protocol_error', errorCode: 4001, errorMessage: 'quota\n exceeded' })).toBe('4001 quota exceeded');
    expect(statusText({ status: 'protocol_error', errorCode: -32000, errorMessage: 'x'.repeat(100) })).toBe(`-32000 ${'x'.repeat(59)}…`);
    expect(statusText({ status: 'protocol_error', errorCode: -32000 })).toBe('-32000 Server error');
  });
});
