// What verify and mock print quotes traffic, and traffic is written by whoever is on the other
// end. A live server answering with a clear-screen, an OSC 52 clipboard write and a CR that
// overwrites the line with a fake verdict, and a client sending the same in a method name, reach
// the terminal as visible escapes: the output holds no control character but newline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeToolCallCapture } from './support/capture-jsonl.js';
import { spawnMcpscope } from './support/mcpscope.js';
import { startScriptedMcpServer } from './support/scripted-mcp-server.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-escapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE = '\u001b[2J\u001b[H\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m\rall 2 calls same, 0 regressed\n\u202e';
// Newline and tab aside, nothing a terminal acts on.
// eslint-disable-next-line no-control-regex -- the characters the output must not hold
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function until(condition: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('terminal output escapes traffic text', () => {
  it('verify shows a hostile server\'s escape sequences as escapes, never raw', async () => {
    const server = await startScriptedMcpServer((message, res) => {
      const answer = message.params?.name === 'boom'
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: HOSTILE } }
        : { jsonrpc: '2.0', id: message.id, result: { isError: true, content: [{ type: 'text', text: HOSTILE }] } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    try {
      const file = writeToolCallCapture(join(dir, 'verify.jsonl'), [{ tool: 'boom', text: 'fine' }, { tool: `wrap\u202e\u001b[8m`, text: 'fine' }]);
      const run = spawnMcpscope(['verify', file, '--target', server.url]);
      expect(await run.exited).toBe(1);
      const out = run.output();
      expect(out).toContain('REGRESSED');
      expect(out).not.toMatch(CONTROL);
      expect(out).toContain('\\u001b[2J');
      expect(out).toContain('\\u001b]52;c;cm0gLXJmIH4=\\u0007');
      expect(out).toContain('\\u009b31m\\u000dall 2 calls same');
      // The fake verdict stays inside its cell, on the row of the call that sent it.
      expect(out.split('\n').some((l) => l.startsWith('all 2 calls same'))).toBe(false);
      expect(out).toContain('wrap\\u202e\\u001b[8m');
    } finally {
      await server.close();
    }
  });

  it('mock\'s log shows a client\'s escape sequences as escapes, never raw', async () => {
    const file = writeToolCallCapture(join(dir, 'mock.jsonl'), [{ tool: 'echo', text: 'hi' }]);
    const mock = spawnMcpscope(['mock', file, '--port', '0', '--ready-json']);
    try {
      await until(() => mock.stdout().includes('"mcpscope":"ready"') || mock.child.exitCode !== null, () => mock.output());
      const ready = JSON.parse(mock.stdout().split('\n').find((l) => l.startsWith('{"mcpscope":"ready"'))!) as { mcpUrl: string };
      const res = await fetch(ready.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: `tools/list${HOSTILE}`, params: {} }),
      });
      await res.text();
      await until(() => mock.stdout().includes('✗ tools/list'), () => mock.output());
      const out = mock.output();
      expect(out).not.toMatch(CONTROL);
      expect(out).toContain('tools/list\\u001b[2J\\u001b[H\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u009b31m\\u000dall 2 calls same, 0 regressed\\u000a\\u202e: ');
    } finally {
      await mock.stop();
    }
  });
});
