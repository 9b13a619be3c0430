import { describe, expect, it } from 'vitest';
import type { ConnectionFlow, DoorRecord, FlowStep } from '@mcpscope/protocol';
import { connectionChecklist } from './checklist.js';
import { refusedHosts } from './refused-hosts.js';

const TUNNEL = 'brave-otter.trycloudflare.com';

function record(id: number, host: string, answer: DoorRecord['answer'] = 'upstream'): DoorRecord {
  return {
    id, rev: id, ts: id, method: 'POST', path: '/mcp', host, status: answer === 'refused' ? 403 : 200, answer, end: 'complete', requestHeaders: {}, responseHeaders: {}, requestBytes: 0, responseBytes: 0,
    peer: { address: '127.0.0.1', port: 1, connection: 1 }, userAgent: 'openai-mcp/1.0.0',
    ...(answer === 'refused' ? { refusals: { count: 1, lastTs: id, samples: [{ ts: id, method: 'POST', path: '/mcp', address: '127.0.0.1' }], refusedHost: { host, fix: `--public-url https://${host}` } } } : {}),
  };
}

const step = (phase: FlowStep['phase'], check: string, colour: FlowStep['colour'] = 'green', title = check, reason = `${check} reason`): FlowStep => ({ phase, colour, check, title, reason, records: [] });
const flow = (steps: FlowStep[]): ConnectionFlow => ({ clientKey: 'c', label: 'ChatGPT', address: '127.0.0.1', firstTs: 0, lastTs: 0, joinedBy: [], sessions: 1, verdict: { kind: 'incomplete', sentence: '' }, steps, probes: 0, records: 1 });
const states = (items: ReturnType<typeof connectionChecklist>) => Object.fromEntries(items.map((i) => [i.key, i.state]));

describe('the connection checklist', () => {
  it('waits for everything before the first request', () => {
    expect(states(connectionChecklist([], undefined, []))).toEqual({ tunnel: 'waiting', host: 'waiting', discovery: 'waiting', initialize: 'waiting', 'tools-list': 'waiting', 'first-call': 'waiting' });
  });

  it('turns the Host red with the fix when the tunnel Host is refused', () => {
    const records = [record(1, TUNNEL, 'refused')];
    const items = connectionChecklist(records, undefined, refusedHosts(records, new Set()));
    expect(states(items)).toMatchObject({ tunnel: 'done', host: 'failed', initialize: 'waiting' });
    expect(items.find((i) => i.key === 'host')!.reason).toContain(`--public-url https://${TUNNEL}`);
  });

  it('goes green step by step through OAuth to the first call', () => {
    const records = [record(1, TUNNEL, 'refused'), record(2, TUNNEL)];
    const steps = [step('discovery', 'challenge'), step('discovery', 'prm'), step('registration', 'registration'), step('token', 'token'), step('mcp', 'initialize'), step('mcp', 'tools-list'), step('mcp', 'mcp-calls')];
    const items = connectionChecklist(records, flow(steps), refusedHosts(records, new Set([TUNNEL])));
    expect(states(items)).toEqual({ tunnel: 'done', host: 'done', discovery: 'done', authorization: 'done', initialize: 'done', 'tools-list': 'done', 'first-call': 'done' });
  });

  it('says discovery is not needed without OAuth, and names the wrong path at initialize', () => {
    const connected = connectionChecklist([record(1, TUNNEL)], flow([step('mcp', 'initialize')]), []);
    expect(states(connected)).toMatchObject({ discovery: 'skipped', initialize: 'done', 'tools-list': 'waiting' });
    expect(connected.some((i) => i.key === 'authorization')).toBe(false);
    const wrong = connectionChecklist([record(1, TUNNEL)], flow([step('mcp', 'not-mcp-endpoint', 'red', 'POST / → 406', 'POST / is not the MCP endpoint: use https://x/mcp.')]), []);
    expect(wrong.find((i) => i.key === 'initialize')).toMatchObject({ state: 'failed', reason: 'POST / is not the MCP endpoint: use https://x/mcp.' });
  });

  it('marks the tunnel and Host not needed for a local client', () => {
    expect(states(connectionChecklist([record(1, '127.0.0.1:7788')], flow([step('mcp', 'initialize')]), []))).toMatchObject({ tunnel: 'skipped', host: 'skipped' });
  });
});
