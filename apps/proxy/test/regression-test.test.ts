// "Save as a regression test", end to end with real parts: an official-SDK server whose forecast
// tool counts its visits (a value no built-in rule calls volatile) is called twice with the same
// arguments through the tap; the dashboard API's plan lists that counter as an --ignore and
// writes the golden JSONL; the plan's own command, run by `mcpscope verify`, passes against the
// same server and fails against a changed release (a field renamed) with a GitHub annotation at
// the golden file's line of the call, and the JUnit report it was asked for.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegressionTestPlan } from '@mcpscope/protocol';
import { runVerify } from '../src/commands/verify.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { splitCommand } from '../src/upstream/split-command.js';
import { connectClient, settled } from './helpers.js';
import { api, apiFetch } from './support/api.js';
import { startAlteredUpstream, type AlteredUpstream } from './support/altered-upstream.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-regression-'));
const golden = join(dir, 'golden.jsonl');
let server: WidgetServer;
let changed: AlteredUpstream;
let app: Mcpscope;
let plan: RegressionTestPlan;

function sink() {
  let text = '';
  return { stream: new Writable({ write: (chunk, _e, done) => ((text += String(chunk)), done()) }), text: () => text };
}

/** Runs the plan's command as a CI job would, with `$MCP_URL` and the file named for this test. */
async function runPlanned(command: string, target: string, extra: string[] = []) {
  const words = splitCommand(command);
  expect(words.slice(0, 4)).toEqual(['npx', '-y', 'mcpscope', 'verify']);
  const args = words.slice(4).map((w) => (w === 'golden.jsonl' ? golden : w === '$MCP_URL' ? target : w.replace('junit.xml', join(dir, 'junit.xml'))));
  const out = sink();
  const err = sink();
  const code = await runVerify([...args, ...extra], { stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

beforeAll(async () => {
  let visits = 0;
  server = await startWidgetServer([
    { tool: 'forecast', uri: 'ui://forecast/card.html', html: '<p>card</p>', structured: (args) => ({ city: args.city, temperature: 21, visit: ++visits }) },
  ]);
  changed = await startAlteredUpstream(server.url, {
    forecast: { rewrite: (r) => ({ ...r, structuredContent: { city: 'Lyon', temp: 21, visit: 0 } }) },
  });
  app = await startTestMcpscope({ target: server.url });
  const client = await connectClient(app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
  await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
  await client.close();
  await settled(app);
  const planned = await api<RegressionTestPlan>(app, `/api/regression-test?filter=${encodeURIComponent('tool:forecast')}`);
  expect(planned.status).toBe(200);
  plan = planned.body;
  const file = await apiFetch(app, `/api/regression-test/golden?filter=${encodeURIComponent('tool:forecast')}`);
  expect(file.headers.get('content-disposition')).toContain('golden.jsonl');
  writeFileSync(golden, await file.text());
});

afterAll(async () => {
  await app?.close();
  await changed?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('save as a regression test', () => {
  it('plans the chosen calls with the counter the capture showed as volatile, and a ready CI job', () => {
    expect(plan).toMatchObject({ scope: 'the filter tool:forecast', calls: 2, sessions: 1, failedInCapture: 0, fileName: 'golden.jsonl', targetUrl: server.url });
    expect(plan.ignore.map((i) => i.path)).toContain('$.result.structuredContent.visit');
    expect(plan.ignore.find((i) => i.path === '$.result.structuredContent.visit')!.evidence).toMatch(/^#\S+ and #\S+, the same tools\/call forecast$/);
    expect(plan.command).toContain(`--ignore '$.result.structuredContent.visit'`);
    expect(plan.command).toMatch(/^npx -y mcpscope verify golden\.jsonl --target "\$MCP_URL" --expect ok --report junit\.xml/);
    expect(plan.workflow).toContain('runs-on: ubuntu-latest');
    expect(plan.workflow).toContain(`MCP_URL: ${server.url}`);
    expect(plan.workflow).toContain(`${plan.command} --format github`);
    // The golden holds the handshake and the two calls, not the tools/list the filter left out.
    const methods = readFileSync(golden, 'utf8').split('\n').filter((l) => l.startsWith('{"seq"')).map((l) => JSON.parse(JSON.parse(l).raw as string) as { method?: string }).map((m) => m.method).filter(Boolean);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/call']);
  });

  it('passes against the same server, and only because the counter is ignored', async () => {
    const same = await runPlanned(plan.command, server.url, ['--format', 'github']);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).not.toContain('::error');
    const strict = await runPlanned(plan.command.replace(/ --ignore '[^']*'/g, ''), server.url);
    expect(strict.code).toBe(1);
  });

  it('fails against a changed server with an annotation on the golden file’s line of each call', async () => {
    const run = await runPlanned(plan.command, changed.url, ['--format', 'github']);
    expect(run.code).toBe(1);
    const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(2);
    const lines = readFileSync(golden, 'utf8').split('\n');
    for (const a of annotations) {
      const m = /^::error file=([^,]+),line=(\d+),title=mcpscope verify%3A tools\/call forecast regressed::#\S+ \(session .*\): before ok, after ok\.%0Ashape \$\.result\.structuredContent\.temperature: 21 → \(missing\)$/.exec(a);
      expect(m, a).not.toBeNull();
      expect(m![1]).toBe(golden);
      const line = JSON.parse(lines[Number(m![2]) - 1]!) as { raw: string; direction: string };
      expect(line.direction).toBe('c2s');
      expect(JSON.parse(line.raw)).toMatchObject({ method: 'tools/call', params: { name: 'forecast' } });
    }
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/failures="2"/);
  });

  it('saves one exchange or a conversation, and refuses an unclear choice', async () => {
    const call = app.store.exchanges(100).find((e) => e.method === 'tools/call')!;
    expect((await api<RegressionTestPlan>(app, `/api/regression-test?exchange=${call.id}`)).body).toMatchObject({ scope: `exchange #${call.id}`, calls: 1 });
    const conversation = app.store.conversations()[0]!.key;
    expect((await api<RegressionTestPlan>(app, `/api/regression-test?conversation=${encodeURIComponent(conversation)}`)).body).toMatchObject({ calls: 3 });
    expect((await api(app, `/api/regression-test?exchange=${call.id}&filter=tool:forecast`)).status).toBe(400);
    expect((await api(app, `/api/regression-test?filter=${encodeURIComponent('tool:nothing')}`)).status).toBe(400);
  });
});
