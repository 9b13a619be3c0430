// A capture leaves mcpscope and comes back whole: real SDK traffic through the tap, exported over
// the API as JSONL and as HAR, imported into a second mcpscope, derives the same exchanges,
// statuses, sessions and diagnostics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { validateHar } from '../src/interchange/har-validate.js';
import type { Har } from '../src/interchange/har-types.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { jsonlFrameLines } from './support/jsonl.js';
import { api, normalisedViews } from './export-support.js';

let source: Mcpscope;
let client: Client;

beforeAll(async () => {
  source = await startTestMcpscope();
  client = await connectClient(source.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 5 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'cheap' } }).catch(() => undefined);
  await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 } }, undefined, { onprogress: () => {} });
  await client.readResource({ uri: 'gifts://catalog' });
  // Bytes that are not JSON-RPC still travel and are evidence: an invalid frame with a diagnostic.
  await fetch(source.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":' });
  await settled(source);
});
afterAll(async () => {
  await client.close();
  await source.close();
});

async function importInto(text: string, name: string) {
  const target = await startTestMcpscope();
  const res = await api(target, `/api/import?name=${encodeURIComponent(name)}`, { method: 'POST', body: text });
  return { target, res, body: (await res.json()) as { report: { frames: number; requests?: number; problems: unknown[]; sessionKeys: string[] } } };
}

describe('capture → JSONL → import', () => {
  it('rebuilds identical exchanges, statuses, sessions and diagnostics', async () => {
    const res = await api(source, '/api/export?format=jsonl&unredacted=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="mcpscope-.*\.jsonl"$/);
    expect(res.headers.get('x-mcpscope-redacted')).toBe('no');
    const text = await res.text();
    const lines = text.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'mcpscope-jsonl', version: 1, redaction: { enabled: false } });

    const { target, res: imported, body } = await importInto(text, 'capture.jsonl');
    try {
      expect(imported.status).toBe(200);
      // Frame lines come back as frames, door-record lines (every HTTP request at the tap) as door
      // records, linked to the imported frames.
      const requestLines = lines.filter((l) => l.startsWith('{"type":"request"')).length;
      expect(requestLines).toBeGreaterThan(0);
      expect(body.report).toMatchObject({ frames: lines.length - 1 - requestLines, requests: requestLines, problems: [] });
      const doors = [...target.store.door.all()];
      expect(doors).toHaveLength(requestLines);
      const originals = [...source.store.door.all()];
      // The same records come back. Their table order is not part of the contract (Connections
      // orders by time) and depends on when each write lands, an open GET stream's most of all.
      const shape = (records: typeof doors) => records.map((r) => JSON.stringify([r.method, r.path, r.status, r.requestBytes, r.responseBytes])).sort();
      expect(shape(doors)).toEqual(shape(originals));
      const linked = doors.filter((r) => r.frameSeqs?.length);
      expect(linked.length).toBeGreaterThan(0);
      for (const r of linked) for (const seq of r.frameSeqs!) expect(target.store.frameRaw(seq)).toBeDefined();
      const before = normalisedViews(source);
      const after = normalisedViews(target, 'capture.jsonl');
      expect(before.exchanges.length).toBeGreaterThanOrEqual(8);
      expect(before.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'invalid-message' })]));
      expect(after).toEqual(before);
    } finally {
      await target.close();
    }
  });
});

describe('capture → HAR → import', () => {
  it('writes valid HAR 1.2 whose SSE answers keep their events, and imports back to the same views', async () => {
    const res = await api(source, '/api/export?format=har&unredacted=1');
    expect(res.status).toBe(200);
    const har = (await res.json()) as Har;
    expect(validateHar(har)).toEqual([]);
    const sse = har.log.entries.filter((e) => e.response.content.mimeType.startsWith('text/event-stream'));
    expect(sse.length).toBeGreaterThan(0);
    const wrap = sse.find((e) => e.request.postData?.text?.includes('wrap_gift'))!;
    expect(wrap.response.content.text).toMatch(/^event: message\ndata: \{.*notifications\/progress.*\}\n\nevent: message\ndata: /);
    expect(wrap._sseEvents!.map((e) => JSON.parse(e.data).method ?? 'answer')).toEqual(['notifications/progress', 'notifications/progress', 'answer']);

    const { target, res: imported } = await importInto(JSON.stringify(har), 'capture.har');
    try {
      expect(imported.status).toBe(200);
      expect(normalisedViews(target, 'capture.har')).toEqual(normalisedViews(source));
    } finally {
      await target.close();
    }
  });
});

describe('export selection and errors', () => {
  it('exports one session only', async () => {
    const [session] = source.store.sessions().filter((s) => s.clientInfo);
    const text = await (await api(source, `/api/export?format=jsonl&session=${encodeURIComponent(session!.sessionKey)}`)).text();
    const frames = jsonlFrameLines(text);
    expect(frames.length).toBeGreaterThan(0);
    expect(new Set(frames.map((f) => f.sessionKey))).toEqual(new Set([session!.sessionKey]));
  });

  it('exports what the filter language selects: only those exchanges, every frame of each', async () => {
    const jsonl = async (filter: string) => {
      const res = await api(source, `/api/export?format=jsonl&unredacted=1&filter=${encodeURIComponent(filter)}`);
      expect(res.status).toBe(200);
      const lines = (await res.text()).trimEnd().split('\n');
      return { header: JSON.parse(lines[0]!), frames: lines.slice(1).map((l) => JSON.parse(l) as { seq: number; raw: string }) };
    };
    const wrap = source.store.exchanges(1000).find((e) => e.target === 'wrap_gift')!;
    const { header, frames } = await jsonl('tool:wrap_gift');
    expect(header.filter).toBe('tool:wrap_gift');
    expect(frames.map((f) => f.seq)).toEqual(wrap.frameSeqs); // request, progress ×2, answer
    const errors = await jsonl('status:err');
    const statuses = source.store.exchanges(1000).filter((e) => errors.frames.some((f) => e.frameSeqs.includes(f.seq))).map((e) => e.status);
    expect(new Set(statuses)).toEqual(new Set(['protocol_error', 'business_error', 'invalid']));
    // diag:CODE reads the stored diagnostics: the invalid frame's row.
    const invalid = source.store.exchanges(1000).find((e) => e.status === 'invalid')!;
    expect((await jsonl('diag:invalid-message')).frames.map((f) => f.seq)).toEqual(invalid.frameSeqs);
    // Free text reaches into bodies.
    expect((await jsonl('"Step 2 of 2"')).frames.map((f) => f.seq)).toEqual(wrap.frameSeqs);
  });

  it('answers bad requests with a code and a message', async () => {
    const bad = async (path: string) => {
      const res = await api(source, path);
      return { status: res.status, body: await res.json() };
    };
    expect(await bad('/api/export?format=pcap')).toEqual({ status: 400, body: { error: { code: 'bad_param', message: 'format must be one of jsonl, har, curl' } } });
    expect(await bad('/api/export?format=curl')).toMatchObject({ status: 400, body: { error: { code: 'bad_param' } } });
    expect(await bad('/api/export?format=curl&exchange=99999')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(await bad('/api/export?redact=$.a..b')).toMatchObject({ status: 400, body: { error: { code: 'bad_redact', message: expect.stringContaining('position 4') } } });
    expect(await bad('/api/export?filter=method:(')).toMatchObject({ status: 400, body: { error: { code: 'bad_filter', message: expect.stringMatching(/^filter "method:\(": .* \(at position \d+\)$/) } } });
    expect((await fetch(`${source.dashboardUrl}/api/export`)).status).toBe(401);
  });

  it('refuses an import with nothing in it, naming the reason', async () => {
    const res = await api(source, '/api/import?name=empty.har', { method: 'POST', body: JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }) });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'import_empty', message: 'nothing to import from empty.har: the file holds no MCP traffic' } });
  });
});
