// A dashboard import of a large file runs beside live traffic: the tap forwards a live call while
// the import is under way (the call's frames land between the import's, which an import stored
// in one block could never allow), and the proxy's memory grows by a bounded multiple of the
// file (it is read as a stream, a chunk of frames at a time, never held whole).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../src/capture/sqlite.js';
import { apiFetch } from './support/api.js';
import { startMcpscopeProcess } from './support/mcpscope.js';
import { startScriptedMcpServer } from './support/scripted-mcp-server.js';
import { memoryOf } from './reliability/cli-process.js';

/** Frames of imported sessions (their keys are stored once, by reference: session-keys.ts). */
const IMPORTED = "session_key IN (SELECT char(1) || id FROM session_keys WHERE key LIKE 'import:%')";

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-import-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An mcpscope JSONL file of `calls` answered tools/call exchanges, each answer about 1 KB. */
function writeLargeImport(path: string, calls: number): number {
  const fd = openSync(path, 'w');
  const t0 = Date.parse('2026-03-01T10:00:00.000Z');
  const padding = 'x'.repeat(1000);
  writeSync(fd, `${JSON.stringify({ format: 'mcpscope-jsonl', version: 1, exportedAt: new Date(t0).toISOString(), generator: 'test', redaction: { enabled: true, rules: [] } })}\n`);
  let seq = 0;
  const line = (direction: string, body: object) => JSON.stringify({ seq: ++seq, ts: t0 + seq, sessionKey: `s${Math.floor(seq / 1000)}`, direction, transport: 'http-json', kind: 'data', raw: JSON.stringify(body), http: { method: 'POST', path: '/mcp', connectionId: `c${seq}` } });
  for (let i = 0; i < calls; i += 500) {
    const lines: string[] = [];
    for (let id = i; id < Math.min(calls, i + 500); id++) {
      lines.push(line('c2s', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { n: id } } }));
      lines.push(line('s2c', { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `${id} ${padding}` }] } }));
    }
    writeSync(fd, `${lines.join('\n')}\n`);
  }
  closeSync(fd);
  return statSync(path).size;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a dashboard import beside live traffic', () => {
  it('forwards a live call in the middle of a 100,000-frame import, and grows memory by a bounded multiple of the file', async () => {
    const upstream = await startScriptedMcpServer((m, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'live' }] } })));
    const file = join(dir, 'big.jsonl');
    const bytes = writeLargeImport(file, 50_000);
    const mcp = await startMcpscopeProcess(['--target', upstream.url, '--db', join(dir, 'capture.db')]);
    const db = () => openSqlite(mcp.dbFile, { readonly: true });
    const call = (marker: string) =>
      fetch(mcp.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { marker } } }) }).then((r) => r.text());
    try {
      await call('warm-up');
      const resting = memoryOf(mcp.pid).rss;
      const body = readFileSync(file);
      let imported: { status: number; frames?: number } | undefined;
      const importing = apiFetch(mcp, '/api/import?name=big.jsonl', { method: 'POST', body })
        .then(async (res) => (imported = { status: res.status, frames: ((await res.json()) as { report?: { frames: number } }).report?.frames }));
      // Once the import's first frames are stored, it is under way: a live call goes through now.
      let stored = 0;
      await until(() => {
        const d = db();
        try {
          stored = (d.prepare(`SELECT count(*) AS n FROM frames WHERE ${IMPORTED}`).get() as { n: number }).n;
        } finally {
          d.close();
        }
        return stored > 0 || imported !== undefined;
      }, 'the import to store its first frames');
      expect(await call('live-during-import')).toContain('live');
      await importing;
      expect(imported).toEqual({ status: 200, frames: 100_000 });

      const liveSeq = () => {
        const d = db();
        try {
          return (d.prepare("SELECT seq FROM frames WHERE direction = 'c2s' AND raw LIKE '%live-during-import%'").get() as { seq: number } | undefined)?.seq;
        } finally {
          d.close();
        }
      };
      await until(() => liveSeq() !== undefined, 'the live call to be stored');
      const d = db();
      try {
        const live = { seq: liveSeq()! };
        const around = (op: '<' | '>') => (d.prepare(`SELECT count(*) AS n FROM frames WHERE ${IMPORTED} AND seq ${op} ?`).get(live.seq) as { n: number }).n;
        // The live call was stored between imported frames: the import yielded to it.
        expect(around('<')).toBeGreaterThan(0);
        expect(around('>')).toBeGreaterThan(0);
      } finally {
        d.close();
      }
      // Held whole, this 75 MB file took the proxy 557 MB over resting; streamed, about 250 MB,
      // most of it the heap's growth under load rather than the file.
      const peak = memoryOf(mcp.pid).peak;
      expect(peak - resting, `peak ${Math.round(peak / 2 ** 20)} MB, resting ${Math.round(resting / 2 ** 20)} MB, file ${Math.round(bytes / 2 ** 20)} MB`).toBeLessThan(5 * bytes);
    } finally {
      await mcp.stop();
      await upstream.close();
    }
  });
});
