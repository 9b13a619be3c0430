// The span of an exchange, for the cases a live session against server-everything does not show:
// what the server sends (CLIENT spans), broken connections, cancels, stdio and stateless sessions,
// a client-propagated traceparent, and the ids that keep a session in one trace.
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary, FrameView, SessionSummary } from '@mcpscope/protocol';
import { transportFrameText } from '@mcpscope/protocol';
import { planSpan, type ExchangeFacts } from '../src/otlp/span-plan.js';
import { spanIdOf, traceIdOf } from '../src/otlp/span-ids.js';

const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);

function exchange(fields: Partial<ExchangeSummary>): ExchangeSummary {
  return { id: '10', sessionKey: 'abc-123', requester: 'client', kind: 'request', method: 'tools/call', target: 'search', rpcId: 7, status: 'ok', startTs: T0, endTs: T0 + 25, frameSeqs: [10, 11], requestSeq: 10, responseSeq: 11, size: 100, diagnostics: 0, updatedSeq: 11, ...fields };
}

function session(fields: Partial<SessionSummary> = {}): SessionSummary {
  return { sessionKey: 'abc-123', transport: 'http-json', era: 'legacy', protocolVersion: '2025-06-18', firstTs: T0 - 1000, lastTs: T0 + 1000, counts: {}, ...fields };
}

function frame(seq: number, fields: Partial<FrameView>): FrameView {
  return { seq, ts: T0 + seq, sessionKey: 'abc-123', direction: 'c2s', transport: 'http-json', kind: 'data', raw: '{}', size: 2, bytes: 2, truncated: false, ...fields };
}

const facts = (ex: ExchangeSummary, more: Partial<ExchangeFacts> = {}): ExchangeFacts => ({ exchange: ex, session: session(), others: [], diagnosticCodes: [], ...more });

describe('planSpan', () => {
  it('puts a session in one trace, derived from its key and start, and an exchange at a stable span id', () => {
    const a = planSpan(facts(exchange({ id: '10' })));
    const b = planSpan(facts(exchange({ id: '12', target: 'fetch' })));
    expect(a.ids.traceId).toBe(b.ids.traceId);
    expect(a.ids.traceId).toBe(traceIdOf('abc-123', T0 - 1000));
    expect(a.ids.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.ids.spanId).toBe(spanIdOf(a.ids.traceId, '10'));
    expect(a.ids.spanId).not.toBe(b.ids.spanId);
    // Same key, another capture (a restarted stdio child with a reused pid): another trace.
    expect(traceIdOf('abc-123', T0 + 5)).not.toBe(a.ids.traceId);
  });

  it('reports what the server sends as CLIENT spans, where every JSON-RPC error code is a failure', () => {
    const plan = planSpan(facts(exchange({ requester: 'server', method: 'elicitation/create', target: undefined, status: 'protocol_error', errorCode: -32602, errorMessage: 'declined' })));
    expect(plan.kind).toBe('client');
    expect(plan.name).toBe('elicitation/create');
    expect(plan.attributes).toMatchObject({ 'rpc.response.status_code': '-32602', 'error.type': '-32602' });
    expect(plan.error).toEqual({ type: '-32602', message: 'declined' });
    // On a SERVER span the same code means the client asked wrongly: recorded, not a failure.
    const server = planSpan(facts(exchange({ status: 'protocol_error', errorCode: -32602 })));
    expect(server.attributes['error.type']).toBeUndefined();
    expect(server.error).toBeUndefined();
    expect(planSpan(facts(exchange({ status: 'protocol_error', errorCode: -32603 }))).attributes['error.type']).toBe('-32603');
  });

  it('names a broken connection by its transport event, and keeps it as an event', () => {
    const broken = frame(11, { direction: 's2c', kind: 'transport', raw: transportFrameText('upstream-error', 'connect ECONNREFUSED 127.0.0.1:3000') });
    const plan = planSpan(facts(exchange({ status: 'transport_error', responseSeq: undefined, endTs: undefined, errorMessage: 'upstream down' }), { others: [broken] }));
    expect(plan.attributes['error.type']).toBe('upstream-error');
    expect(plan.events).toEqual([{ name: 'mcpscope.transport', timeMs: T0 + 11, attributes: { 'mcpscope.transport.event': 'upstream-error', 'mcpscope.transport.message': 'connect ECONNREFUSED 127.0.0.1:3000' } }]);
    expect(plan.endMs).toBe(T0 + 11);
  });

  it('records a cancel as an event and a cancelled failure', () => {
    const cancel = frame(12, { raw: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user stopped it' } }) });
    const plan = planSpan(facts(exchange({ status: 'cancelled', responseSeq: undefined, endTs: undefined }), { others: [cancel] }));
    expect(plan.attributes['error.type']).toBe('cancelled');
    expect(plan.events[0]).toMatchObject({ name: 'notifications/cancelled', attributes: { 'mcpscope.cancel.reason': 'user stopped it' } });
  });

  it('sets mcp.session.id only for an Mcp-Session-Id, and network.transport by transport', () => {
    expect(planSpan(facts(exchange({}))).attributes).toMatchObject({ 'mcp.session.id': 'abc-123', 'network.transport': 'tcp', 'network.protocol.name': 'http' });
    const stdio = planSpan(facts(exchange({ sessionKey: 'stdio:4242' }), { session: session({ sessionKey: 'stdio:4242', transport: 'stdio' }) }));
    expect(stdio.attributes['mcp.session.id']).toBeUndefined();
    expect(stdio.attributes['network.transport']).toBe('pipe');
    const modern = planSpan(facts(exchange({ sessionKey: 'client:claude-code/2.0' }), { session: session({ sessionKey: 'client:claude-code/2.0', era: 'modern', protocolVersion: '2026-07-28' }) }));
    expect(modern.attributes['mcp.session.id']).toBeUndefined();
    expect(modern.attributes['mcp.protocol.version']).toBe('2026-07-28');
  });

  it('links a traceparent the client propagated in params._meta, and ignores a malformed one', () => {
    const request = (traceparent: string) => frame(10, { raw: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search', _meta: { traceparent } } }) });
    const plan = planSpan(facts(exchange({}), { request: request('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01') }));
    expect(plan.links).toEqual([{ ids: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }, attributes: { 'mcpscope.link.type': 'traceparent' } }]);
    expect(planSpan(facts(exchange({}), { request: request('00-00000000000000000000000000000000-00f067aa0ba902b7-01') })).links).toEqual([]);
    expect(planSpan(facts(exchange({}), { request: request('not a traceparent') })).links).toEqual([]);
  });

  it('uses the resource URI as an attribute, never in the name, and names junk and orphans', () => {
    const read = planSpan(facts(exchange({ method: 'resources/read', target: 'file:///tmp/a.txt' })));
    expect(read.name).toBe('resources/read');
    expect(read.attributes['mcp.resource.uri']).toBe('file:///tmp/a.txt');
    expect(planSpan(facts(exchange({ method: undefined, target: undefined, kind: 'invalid', status: 'invalid' }))).name).toBe('invalid message');
    expect(planSpan(facts(exchange({ method: undefined, target: undefined, status: 'orphan', requestSeq: undefined }))).name).toBe('orphan response');
  });
});
