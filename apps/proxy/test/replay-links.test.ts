// A replay is marked as one wherever the dashboard reads exchanges: the API's pages and detail,
// the live WebSocket push (every push of the row, from the request alone to the answer), and a
// reconnecting dashboard's catch-up. The mark survives a restart and `mcpscope rebuild`: links
// are not derived from frames, so a rebuild must keep them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ExchangeDetail, ExchangeSummary, ExchangesPage, ReplayResponse, ServerEvent } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { CaptureStore } from '../src/capture/capture-store.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './replay-helpers.js';
import { tempDbFile } from './store-helpers.js';
import { spawnMcpscope } from './support/mcpscope.js';

/** A dashboard's socket: every exchange summary pushed, in order. */
class Pushes {
  readonly exchanges: ExchangeSummary[] = [];
  private readonly waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as ServerEvent;
      if (event.type === 'exchanges/update') this.exchanges.push(...event.exchanges);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(app: Mcpscope, after: number): Promise<Pushes> {
    const ws = new WebSocket(`${app.dashboardUrl.replace('http', 'ws')}/ws?after=${after}`, ['mcpscope', `mcpscope.token.${app.token}`]);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Pushes(ws)));
      ws.once('error', reject);
    });
  }

  /** Resolves once a pushed summary of `id` is finished (the test's own timeout bounds the wait). */
  async finished(id: string): Promise<ExchangeSummary[]> {
    for (;;) {
      const mine = this.exchanges.filter((e) => e.id === id);
      if (mine.some((e) => e.status !== 'pending')) return mine;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }
}

const db = tempDbFile();
let app: Mcpscope;
let client: Client;
let originalId: string;
let replayId: string;
let live: Pushes;
let stopped = false;

beforeAll(async () => {
  app = await startTestMcpscope({ db });
  client = await connectClient(app.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 } });
  await settled(app);
  originalId = app.store.exchanges(50).find((e) => e.method === 'tools/call')!.id;
  live = await Pushes.open(app, app.store.head());
  const message = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 80 } } };
  const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message });
  expect(status).toBe(200);
  replayId = body.exchange.id;
});
afterAll(async () => {
  live.ws.close();
  if (stopped) return;
  await client.close();
  await app.close();
});

describe('a replayed exchange carries replayOf', () => {
  it('in the replay answer, the exchange list and the detail', async () => {
    const page = (await api<ExchangesPage>(app, '/api/exchanges?limit=50')).body;
    expect(page.exchanges.find((e) => e.id === replayId)).toMatchObject({ status: 'ok', replayOf: originalId });
    expect(page.exchanges.find((e) => e.id === originalId)!.replayOf).toBeUndefined();
    expect((await api<ExchangeDetail>(app, `/api/exchanges/${replayId}`)).body.exchange).toMatchObject({ status: 'ok', replayOf: originalId });
  });

  it('in every live push of the row, and in a reconnecting dashboard\'s catch-up', async () => {
    const pushed = await live.finished(replayId);
    expect(pushed.length).toBeGreaterThan(0);
    expect(pushed.every((e) => e.replayOf === originalId)).toBe(true);
    const later = await Pushes.open(app, 0);
    try {
      expect((await later.finished(replayId)).every((e) => e.replayOf === originalId)).toBe(true);
    } finally {
      later.ws.close();
    }
  });

  it('after a restart and after `mcpscope rebuild`', async () => {
    await client.close();
    await app.close();
    stopped = true;
    const check = () => {
      const store = new CaptureStore(db);
      try {
        return { replay: store.exchange(replayId)?.replayOf, original: store.exchange(originalId)?.replayOf, replays: store.replayLinks.replays(originalId) };
      } finally {
        store.close();
      }
    };
    expect(check()).toEqual({ replay: originalId, original: undefined, replays: [replayId] });
    const rebuild = spawnMcpscope(['rebuild', '--db', db]);
    expect(await rebuild.exited).toBe(0);
    expect(check()).toEqual({ replay: originalId, original: undefined, replays: [replayId] });
  });
});
