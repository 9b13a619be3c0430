// A replay is marked as one wherever the dashboard reads exchanges: the API's pages and detail,
// the live WebSocket push (every push of the row, from the request alone to the answer), and a
// reconnecting dashboard's catch-up. The mark survives a restart and `mcpscope rebuild`: links
// are not derived from frames, so a rebuild must keep them. It also survives leaving the machine:
// a JSONL export imported elsewhere, and `mcpscope open` of the export or of the capture file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ExchangeDetail, ExchangeSummary, ExchangesPage, ImportResponse, ReplayResponse, ServerEvent } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { CaptureStore } from '../src/capture/capture-store.js';
import type { CaptureReader } from '../src/capture/capture-reader.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './replay-helpers.js';
import { apiFetch } from './support/api.js';
import { tempDbFile } from './store-helpers.js';
import { spawnMcpscope } from './support/mcpscope.js';
import { openCapture } from '../src/compose/open-capture.js';
import { writeFileSync } from 'node:fs';

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

  it('in a JSONL export imported into another mcpscope', async () => {
    const text = await (await apiFetch(app, '/api/export?format=jsonl')).text();
    expect(text).toContain('"type":"link"');
    const other = await startTestMcpscope();
    try {
      const imported = await apiFetch(other, '/api/import?name=gifts.jsonl', { method: 'POST', body: text });
      expect(imported.status).toBe(200);
      expect(((await imported.json()) as ImportResponse).report.links).toBe(1);
      expectReplayLinked(other.store);
    } finally {
      await other.close();
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

describe('mcpscope open keeps the mark', () => {
  it('of the capture database and of its JSONL export', async () => {
    expect(stopped).toBe(true);
    const fromDb = await openCapture({ file: db });
    if (!fromDb.ok) throw new Error(fromDb.message);
    let jsonl: string;
    try {
      expect(fromDb.value.report.links).toBe(1);
      expectReplayLinked(fromDb.value.store);
      jsonl = await (await apiFetch({ dashboardUrl: fromDb.value.dashboardUrl, token: fromDb.value.token }, '/api/export?format=jsonl')).text();
    } finally {
      await fromDb.value.close();
    }
    const file = `${db}.export.jsonl`;
    writeFileSync(file, jsonl);
    const fromJsonl = await openCapture({ file });
    if (!fromJsonl.ok) throw new Error(fromJsonl.message);
    try {
      expect(fromJsonl.value.report.links).toBe(1);
      expectReplayLinked(fromJsonl.value.store);
    } finally {
      await fromJsonl.value.close();
    }
  });
});

/** Exactly one imported exchange is a replay: the budget-80 call, marked as replaying the budget-40 one. */
function expectReplayLinked(reader: CaptureReader): void {
  const exchanges = reader.exchanges(50);
  const budget = (ex: ExchangeSummary) => (JSON.parse(reader.frameRaw(ex.requestSeq!)!.raw) as { params: { arguments: { budget: number } } }).params.arguments.budget;
  const replays = exchanges.filter((e) => e.replayOf !== undefined);
  expect(replays).toHaveLength(1);
  const original = exchanges.find((e) => e.id === replays[0]!.replayOf);
  expect(original).toMatchObject({ method: 'tools/call', status: 'ok' });
  expect([budget(original!), budget(replays[0]!)]).toEqual([40, 80]);
}
