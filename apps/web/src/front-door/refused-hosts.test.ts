import { describe, expect, it } from 'vitest';
import type { DoorRecord } from '@mcpscope/protocol';
import { refusedHosts } from './refused-hosts.js';

function refused(id: number, host: string, extra: Partial<DoorRecord> & { origin?: string; count?: number; address?: string } = {}): DoorRecord {
  const { origin, count = 1, address = '127.0.0.1', ...rest } = extra;
  return {
    id, rev: id, ts: id, method: 'POST', path: '/mcp', host, status: 403, answer: 'refused', end: 'complete', requestHeaders: {}, responseHeaders: {}, requestBytes: 0, responseBytes: 0,
    peer: { address, port: 1 } as DoorRecord['peer'],
    refusals: { count, lastTs: id, samples: [{ ts: id, method: 'POST', path: '/mcp', address }], refusedHost: { host, fix: `--public-url https://${host}` }, ...(origin ? { origin } : {}) },
    ...rest,
  };
}

describe('refused Hosts for the banner', () => {
  it('sums a Host over its Origins, names ChatGPT from its User-Agent, and lists addresses and pages', () => {
    const views = refusedHosts(
      [refused(1, 'brave-otter.trycloudflare.com', { userAgent: 'openai-mcp/1.0.0', count: 3 }), refused(2, 'brave-otter.trycloudflare.com', { origin: 'https://evil.example', count: 2, address: '10.0.0.9' })],
      new Set(),
    );
    expect(views).toEqual([
      { host: 'brave-otter.trycloudflare.com', fix: '--public-url https://brave-otter.trycloudflare.com', client: 'ChatGPT (openai-mcp/1.0.0)', count: 5, addresses: ['127.0.0.1', '10.0.0.9'], origins: ['https://evil.example'], lastTs: 2 },
    ]);
  });

  it('leaves out accepted Hosts and refusals of an Origin alone', () => {
    const originOnly: DoorRecord = { ...refused(3, 'localhost:7'), refusals: { count: 1, lastTs: 3, samples: [], origin: 'null' } };
    expect(refusedHosts([refused(1, 'a.example'), originOnly], new Set(['a.example']))).toEqual([]);
  });
});
