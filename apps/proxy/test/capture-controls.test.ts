// Capture controls through the API, with the official SDK client's traffic through the tap: a
// mark lands in the capture after what was stored; a pause keeps forwarding but stores nothing
// (and says so in /api/capture), its start and end are marks, and the marks leave with a JSONL
// export and come back with its import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CaptureMark, CaptureStatus, MarksPage, ServerEvent } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api, apiFetch, apiGet } from './support/api.js';

let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  app = await startTestMcpscope();
  client = await connectClient(app.mcpUrl);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

const gift = (occasion: string) => client.callTool({ name: 'suggest_gifts', arguments: { occasion, budget: 60 } });

describe('capture controls', () => {
  it('a mark sits after everything stored, and a pause stores nothing while the calls are answered', async () => {
    await gift('before');
    await settled(app);
    const head = app.store.head();
    const mark = await api<CaptureMark>(app, '/api/marks', { label: '  deploy v2  ' });
    expect(mark.status).toBe(201);
    expect(mark.body).toMatchObject({ kind: 'mark', label: 'deploy v2', afterSeq: head });

    const paused = await api<CaptureStatus>(app, '/api/capture/pause', {});
    expect(paused.body).toMatchObject({ state: 'paused', pausedByUser: {} });
    const answer = await gift('during the pause');
    expect(JSON.stringify(answer.content)).toContain('Gift ideas');
    await settled(app);
    expect(app.store.head()).toBe(head);
    const during = await apiGet<CaptureStatus>(app, '/api/capture');
    expect(during.notRecorded.frames).toBeGreaterThanOrEqual(2);

    const resumed = await api<CaptureStatus>(app, '/api/capture/resume', {});
    expect(resumed.body.state).toBe('recording');
    expect(resumed.body.pausedByUser).toBeUndefined();
    await gift('after');
    await settled(app);
    expect(app.store.head()).toBeGreaterThan(head);

    const { marks } = await apiGet<MarksPage>(app, '/api/marks');
    expect(marks.map((m) => m.kind)).toEqual(['mark', 'pause', 'resume']);
    expect(marks[1]!.label).toContain('not stored');
    expect(marks[2]!.label).toMatch(/capture resumed: \d+ frames forwarded during the pause were not stored/);
    expect(marks.every((m) => m.afterSeq === head)).toBe(true);
  });

  it("every open dashboard hears of a mark, a pause and what the pause did not store, without asking", async () => {
    const events: ServerEvent[] = [];
    const ws = new WebSocket(`${app.dashboardUrl.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${app.token}` } });
    ws.on('message', (d) => events.push(JSON.parse(String(d)) as ServerEvent));
    await new Promise((r) => ws.once('open', r));
    const captureEvents = () => events.filter((e): e is Extract<ServerEvent, { type: 'capture/update' }> => e.type === 'capture/update');
    const heard = async (test: (e: Extract<ServerEvent, { type: 'capture/update' }>) => boolean) => {
      for (let i = 0; i < 200 && !captureEvents().some(test); i++) await new Promise((r) => setTimeout(r, 10));
      return captureEvents().find(test);
    };
    try {
      await api(app, '/api/marks', { label: 'pushed' });
      const marked = await heard((e) => e.marks?.some((m) => m.label === 'pushed') === true);
      expect(marked?.marks?.at(-1)).toMatchObject({ kind: 'mark', label: 'pushed' });
      expect(marked?.status.state).toBe('recording');

      await api(app, '/api/capture/pause', {});
      const paused = await heard((e) => e.status.pausedByUser !== undefined);
      expect(paused?.marks?.at(-1)?.kind).toBe('pause');
      const lostBefore = paused!.status.notRecorded.frames;
      await gift('while paused');
      // Frames not stored change the status, not the marks: the count comes without them.
      const counted = await heard((e) => e.status.notRecorded.frames >= lostBefore + 2);
      expect(counted?.marks).toBeUndefined();

      await api(app, '/api/capture/resume', {});
      const resumed = await heard((e) => e.status.state === 'recording' && e.marks?.at(-1)?.kind === 'resume');
      expect(resumed?.status.pausedByUser).toBeUndefined();
    } finally {
      ws.close();
    }
  });

  it('refuses a mark without a label', async () => {
    expect((await api(app, '/api/marks', { label: ' ' })).status).toBe(400);
  });

  it('marks leave with a JSONL export and come back with its import, after the same frames', async () => {
    const text = await (await apiFetch(app, '/api/export?format=jsonl')).text();
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.type === 'mark').map((l) => l.label)).toContain('deploy v2');

    const target = await startTestMcpscope();
    try {
      expect((await apiFetch(target, '/api/import?name=marked.jsonl', { method: 'POST', body: text })).status).toBe(200);
      const { marks } = await apiGet<MarksPage>(target, '/api/marks');
      expect(marks.map((m) => [m.kind, m.label])).toEqual((await apiGet<MarksPage>(app, '/api/marks')).marks.map((m) => [m.kind, m.label]));
      // Each imported mark follows as many frames as it did in the original.
      const framesBefore = (store: Mcpscope['store'], afterSeq: number) => [...store.select()].filter((f) => f.seq <= afterSeq).length;
      const original = (await apiGet<MarksPage>(app, '/api/marks')).marks[0]!;
      expect(framesBefore(target.store, marks[0]!.afterSeq)).toBe(framesBefore(app.store, original.afterSeq));
    } finally {
      await target.close();
    }
  });
});
