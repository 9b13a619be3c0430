// What the server said on its own, tied to its trigger: the client frame last received before it
// in the same session (a call, a client notification, the reply to an earlier push), and timed
// from it; what a call's own answer stream carried stays with the call.
import { describe, expect, it } from 'vitest';
import { buildCassette, triggerKey } from '../../src/index.js';
import { frameMaker } from '../support/frames.js';

const get = { http: { method: 'GET', path: '/mcp', connectionId: 'g' } };
const post = (c: string) => ({ http: { method: 'POST', path: '/mcp', connectionId: c } });

describe('cassette pushes', () => {
  it('ties each server-started message to the client frame before it, and keeps a call stream\'s own events with the call', () => {
    const f = frameMaker('s1', 'sse');
    const frames = [
      f('c2s', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' } } }, post('a')),
      f('s2c', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }, post('a')),
      f('c2s', { jsonrpc: '2.0', method: 'notifications/initialized' }, post('b')),
      f('s2c', { jsonrpc: '2.0', id: 0, method: 'roots/list' }, get),
      f('c2s', { jsonrpc: '2.0', id: 0, result: { roots: [] } }, post('c')),
      f('s2c', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'Roots updated' } }, get),
      f('c2s', { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'demo://a' } }, post('d')),
      f('s2c', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'on the call stream' } }, post('d')),
      f('s2c', { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'demo://a' } }, get),
      f('s2c', { jsonrpc: '2.0', id: 2, result: {} }, post('d')),
    ];
    const cassette = buildCassette(frames);
    const [session] = cassette.sessions;
    const subscribe = cassette.calls.find((c) => c.method === 'resources/subscribe')!;
    expect(subscribe.events.map((e) => e.message.method)).toEqual(['notifications/message']);
    const initialized = session!.steps.find((s) => s.kind === 'notification')!;
    expect(session!.pushes.map((p) => [p.method, p.after, p.offsetMs])).toEqual([
      ['roots/list', { kind: 'notification', exchangeId: initialized.kind === 'notification' ? initialized.notification.exchangeId : '' }, 10],
      ['notifications/message', { kind: 'reply', push: 0 }, 10],
      ['notifications/resources/updated', { kind: 'call', exchangeId: subscribe.exchangeId }, 20],
    ]);
    expect(session!.pushes[0]!.reply).toEqual({ offsetMs: 10, message: { jsonrpc: '2.0', id: 0, result: { roots: [] } } });
    expect(triggerKey('s1', session!.pushes[1]!.after)).toBe('reply s1 0');
  });

  it('a message before any client frame of its session follows the session start; HTTP+SSE paths are named', () => {
    const f = frameMaker('s2', 'legacy-sse');
    const stream = { http: { method: 'GET', path: '/sse', connectionId: 'h1' } };
    const posted = { http: { method: 'POST', path: '/message?sessionId=s2', connectionId: 'h2' } };
    const cassette = buildCassette([
      f('s2c', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, stream),
      f('c2s', { jsonrpc: '2.0', id: 1, method: 'ping' }, posted),
      f('s2c', { jsonrpc: '2.0', id: 1, result: {} }, stream),
    ]);
    expect(cassette.sessions[0]!.pushes.map((p) => [p.method, p.after])).toEqual([['notifications/tools/list_changed', { kind: 'start' }]]);
    expect(cassette.legacySse).toEqual({ streamPaths: ['/sse'], postPaths: ['/message'] });
  });
});
