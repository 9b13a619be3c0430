// The widget playground's sources of HTML, against the demo server behind the tap: a local file the
// user names stands in for the widget resource, is re-read when it is rewritten (an event on the
// stream the dashboard listens to, a new version in the preview), and everything a page could ask
// for beyond "this .html file, read-only" is refused; a resources/read made now is used by id;
// the other captured results of the same tool are listed for flipping.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { WidgetCapturedResult, WidgetFileEvent, WidgetFileState, WidgetPreview } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { parseCli } from '../src/commands/cli-args.js';
import { MAX_WIDGET_FILE_BYTES } from '../src/widget-host/widget-files.js';
import { GIFT_WIDGET_URI } from '../src/demo/gift-widget.js';
import { connectClient, settled } from './helpers.js';
import { api, apiFetch } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-widget-file-'));
const put = (app: Mcpscope, id: string, path: unknown, token = app.token) =>
  apiFetch({ ...app, token }, `/api/widget/${id}/file`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as WidgetFileState & { error?: { code: string; message: string } } }));

/** The events stream, line by line: `next()` resolves with the next event. */
async function events(app: Mcpscope) {
  const abort = new AbortController();
  const res = await apiFetch(app, '/api/widget-files/events', { signal: abort.signal });
  expect(res.headers.get('content-type')).toContain('application/x-ndjson');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  return {
    async next(): Promise<WidgetFileEvent> {
      for (;;) {
        const newline = buffered.indexOf('\n');
        if (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          return JSON.parse(line) as WidgetFileEvent;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffered += value;
      }
    },
    close: () => abort.abort(),
  };
}

describe('the widget playground’s HTML sources', () => {
  let app: Mcpscope;
  let client: Client;
  let callId: string;
  beforeAll(async () => {
    app = await startTestMcpscope();
    client = await connectClient(app.mcpUrl);
    await client.listTools();
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 } });
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 90 } });
    await settled(app);
    callId = app.store.exchanges(100).find((e) => e.method === 'tools/call' && e.target === 'suggest_gifts')!.id;
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a named file as the widget and re-reads it when it is rewritten, telling the dashboard', async () => {
    const file = join(dir, 'widget.html');
    writeFileSync(file, '<p>version one</p>');
    const stream = await events(app);
    try {
      const set = await put(app, callId, file);
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ uri: GIFT_WIDGET_URI, version: 1, bytes: 18 });
      expect(await stream.next()).toMatchObject({ type: 'changed', file: { uri: GIFT_WIDGET_URI, version: 1 } });
      const first = await api<WidgetPreview>(app, `/api/widget/${callId}`);
      expect(first.body.resource).toMatchObject({ source: 'file', html: '<p>version one</p>', file: { version: 1 } });
      expect(first.body.resource!.exchangeId).toBeUndefined();

      writeFileSync(file, '<p>version two, longer</p>');
      expect(await stream.next()).toMatchObject({ type: 'changed', file: { version: 2, bytes: 26 } });
      expect((await api<WidgetPreview>(app, `/api/widget/${callId}`)).body.resource).toMatchObject({ html: '<p>version two, longer</p>', file: { version: 2 } });

      expect((await apiFetch(app, `/api/widget/${callId}/file`, { method: 'DELETE' })).status).toBe(200);
      expect(await stream.next()).toEqual({ type: 'stopped', uri: GIFT_WIDGET_URI });
      expect((await api<WidgetPreview>(app, `/api/widget/${callId}`)).body.resource).toBeUndefined();
    } finally {
      stream.close();
    }
  });

  it('refuses anything but an absolute path to a regular .html file of bounded size in UTF-8, and keeps serving nothing', async () => {
    const secret = join(dir, 'id_rsa');
    writeFileSync(secret, 'PRIVATE KEY');
    symlinkSync(secret, join(dir, 'innocent.html'));
    mkdirSync(join(dir, 'folder.html'));
    execFileSync('mkfifo', [join(dir, 'pipe.html')]);
    writeFileSync(join(dir, 'huge.html'), Buffer.alloc(MAX_WIDGET_FILE_BYTES + 1, 0x61));
    writeFileSync(join(dir, 'latin1.html'), Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0x3c]));
    const cases: [unknown, RegExp][] = [
      ['widget.html', /not an absolute path/],
      [secret, /not an \.html or \.htm file/],
      [join(dir, 'innocent.html'), /leads to .*id_rsa, which is not an \.html/],
      [join(dir, 'folder.html'), /not a regular file/],
      [join(dir, 'pipe.html'), /not a regular file/],
      [join(dir, 'huge.html'), /may be at most/],
      [join(dir, 'latin1.html'), /not UTF-8/],
      [join(dir, 'missing.html'), /cannot be read: ENOENT/],
    ];
    for (const [path, why] of cases) {
      const r = await put(app, callId, path);
      expect(r.status, String(path)).toBe(422);
      expect(r.body.error).toMatchObject({ code: 'widget_file_refused' });
      expect(r.body.error!.message).toMatch(why);
    }
    expect((await put(app, callId, 42)).status).toBe(400);
    // Without the dashboard's token nothing is read at all.
    writeFileSync(join(dir, 'ok.html'), '<p>ok</p>');
    expect((await put(app, callId, join(dir, 'ok.html'), 'wrong-token')).status).toBe(401);
    expect((await api<WidgetPreview>(app, `/api/widget/${callId}`)).body.resource).toBeUndefined();
  });

  it('uses a resources/read made now by its id, and lists the other captured results of the tool', async () => {
    const read = await api<WidgetPreview>(app, `/api/widget/${callId}/read`, {});
    expect(read.body.resource).toMatchObject({ source: 'read-now' });
    const byId = await api<WidgetPreview>(app, `/api/widget/${callId}?resource=${read.body.resource!.exchangeId}`);
    expect(byId.body.resource).toMatchObject({ source: 'read-now', exchangeId: read.body.resource!.exchangeId });
    // Only a resources/read of this widget may be named.
    expect((await api(app, `/api/widget/${callId}?resource=${callId}`)).status).toBe(404);

    const others = await api<WidgetCapturedResult[]>(app, `/api/widget/${callId}/results`);
    expect(others.body).toHaveLength(1);
    expect(others.body[0]).toMatchObject({ status: 'ok', arguments: { occasion: 'birthday', budget: 40 } });
    expect(others.body[0]!.result?.structuredContent).toBeDefined();
  });
});

describe('--widget-file', () => {
  it('takes a URI= prefix or a path for every widget, resolved against the working directory', () => {
    expect(parseCli(['--widget-file', 'ui://gifts/widget.html=dist/w.html']).widgetFiles).toEqual([{ uri: 'ui://gifts/widget.html', path: join(process.cwd(), 'dist/w.html') }]);
    expect(parseCli(['--widget-file', 'a=b.html']).widgetFiles).toEqual([{ uri: '*', path: join(process.cwd(), 'a=b.html') }]);
  });

  it('stops the start when the file cannot be served', async () => {
    await expect(startTestMcpscope({ widgetFiles: [{ uri: '*', path: join(dir, 'nope.txt') }] })).rejects.toThrow(/--widget-file: .*not an \.html/);
  });
});
