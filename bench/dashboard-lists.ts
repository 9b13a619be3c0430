/**
 * What the dashboard reads at load when a host churned through its sessions and conversations: a
 * capture of 30,000 conversations of one session each, then 20,000 sessions of one conversation,
 * and 130,000 door records (a POST for each lone session, 3 for each churned one, plus 40,000
 * tools/call, through the real pipeline: support/dashboard-traffic.ts), served by the built CLI,
 * opened in Chromium. Per round (a fresh page): the bytes every response carried (CDP
 * `encodedDataLength`), those of the door records (`/api/requests…`), of the sessions
 * (`/api/sessions…`) and of the conversations (`/api/conversations…`), the time from navigation
 * to the last response before the network is idle, and the JS heap after GC then. Baseline: the
 * same on an empty capture.
 *
 * `BENCH_BEFORE=<built checkout>` serves a copy of the same capture with that checkout's CLI too,
 * its rounds alternating with this build's ("before: …" rows); `BENCH_MCPSCOPE_BIN` replaces this
 * build's CLI with another's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { buildChurnCaptureFile } from './support/dashboard-traffic.js';
import { tempDb } from './store-common.js';
import { measured, type BenchOptions, type BenchRow } from './report.js';
import { BEFORE } from './paths.js';
import { heapAfterGcMb } from './support/dashboard-probes.js';

const BENCH = 'dashboard-lists';
const BIN = process.env.BENCH_MCPSCOPE_BIN ?? fileURLToPath(new URL('../apps/proxy/bin/mcpscope.js', import.meta.url));
const ROUNDS = 3;

/** The CLI `bin` on `db`, ready when it prints its `--ready-json` line. */
async function serve(db: string, bin = BIN): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, '--port', '0', '--ui-port', '0', '--no-open', '--ready-json', '--db', db], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"mcpscope":"ready"'));
      if (line) resolve((JSON.parse(line) as { dashboardLoginUrl: string }).dashboardLoginUrl);
    });
    child.once('exit', (code) => reject(new Error(`mcpscope exited (${code}):\n${out}`)));
  });
  return { url, child };
}

interface Load {
  ms: number;
  bytes: number;
  door: number;
  sessions: number;
  conversations: number;
  heapMb: number;
}

/** One load in a fresh page: bytes per kind of response and the time to the last one before idle. */
async function loadOnce(page: Page, url: string): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  const totals: Load = { ms: 0, bytes: 0, door: 0, sessions: 0, conversations: 0, heapMb: 0 };
  let last = 0;
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => {
    const path = new URL(urls.get(e.requestId) ?? 'about:blank').pathname;
    totals.bytes += e.encodedDataLength;
    if (path.startsWith('/api/requests')) totals.door += e.encodedDataLength;
    if (path.startsWith('/api/sessions')) totals.sessions += e.encodedDataLength;
    if (path.startsWith('/api/conversations')) totals.conversations += e.encodedDataLength;
    last = performance.now();
  });
  const started = performance.now();
  await page.goto(url);
  await page.waitForLoadState('networkidle', { timeout: 600_000 });
  totals.ms = last - started;
  await cdp.detach();
  totals.heapMb = await heapAfterGcMb(page);
  return totals;
}

/** Stops a served CLI and waits for it to exit (it holds its capture file's lock until then). */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function bench(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const sessions = options.smoke ? 300 : 20_000;
  const calls = options.smoke ? 600 : 40_000;
  const conversations = options.smoke ? 300 : 30_000;
  const records = conversations + sessions * 3 + calls;
  const file = tempDb('dashboard-lists');
  const built = buildChurnCaptureFile(file, sessions, calls, conversations);
  console.log(`built ${conversations + 1} conversations, ${conversations + sessions} sessions, ${records} door records in ${built.seconds.toFixed(1)} s`);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  /** ROUNDS fresh pages per server, the servers taking turns (so a busy spell weighs on each alike). */
  const rounds = async (servers: { db: string; bin: string }[]): Promise<Load[][]> => {
    const served = await Promise.all(servers.map((s) => serve(s.db, s.bin)));
    try {
      const out: Load[][] = served.map(() => []);
      for (let r = 0; r < ROUNDS; r++) {
        for (const [i, { url }] of served.entries()) {
          const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
          out[i]!.push(await loadOnce(page, url));
          await page.close();
        }
      }
      return out;
    } finally {
      await Promise.all(served.map(({ child }) => stop(child)));
    }
  };
  try {
    const [empty] = await rounds([{ db: tempDb('dashboard-lists-empty'), bin: BIN }]);
    const servers = [{ db: file, bin: BIN }];
    if (BEFORE) {
      const copy = tempDb('dashboard-lists-before');
      copyFileSync(file, copy);
      servers.push({ db: copy, bin: join(BEFORE, 'apps/proxy/bin/mcpscope.js') });
    }
    const [full, before] = await rounds(servers);
    const median = (loads: Load[], of: (l: Load) => number) => measured({ bench: BENCH, metric: '', unit: '' }, loads.map(of)).value;
    const size = `${(conversations + 1).toLocaleString('en-US')} conversations, ${(conversations + sessions).toLocaleString('en-US')} sessions, ${records.toLocaleString('en-US')} door records`;
    const rowsOf = (loads: Load[], label: string): BenchRow[] => [
      measured({ bench: BENCH, metric: `${label}load → network idle, ${size}`, unit: 'ms', baseline: { name: 'empty capture', value: median(empty!, (l) => l.ms) } }, loads.map((l) => l.ms)),
      measured({ bench: BENCH, metric: `${label}bytes read at load, ${size}`, unit: 'MB', baseline: { name: 'empty capture', value: median(empty!, (l) => l.bytes / 1e6) } }, loads.map((l) => l.bytes / 1e6)),
      measured({ bench: BENCH, metric: `${label}of which door records (/api/requests…)`, unit: 'MB' }, loads.map((l) => l.door / 1e6)),
      measured({ bench: BENCH, metric: `${label}of which sessions (/api/sessions…)`, unit: 'MB' }, loads.map((l) => l.sessions / 1e6)),
      measured({ bench: BENCH, metric: `${label}of which conversations (/api/conversations…)`, unit: 'MB' }, loads.map((l) => l.conversations / 1e6)),
      measured({ bench: BENCH, metric: `${label}JS heap after GC, at network idle`, unit: 'MB', baseline: { name: 'empty capture', value: median(empty!, (l) => l.heapMb) } }, loads.map((l) => l.heapMb)),
    ];
    return [...rowsOf(full!, ''), ...(before ? rowsOf(before, 'before: ') : [])];
  } finally {
    await browser.close();
  }
}
