/**
 * What the dashboard reads at load when a host churned through its sessions: a capture of 20,000
 * sessions and 100,000 door records (3 POSTs a session plus 40,000 tools/call, through the real
 * pipeline: support/dashboard-traffic.ts), served by the built CLI, opened in Chromium. Per round
 * (a fresh page): the bytes every response carried (CDP `encodedDataLength`), those of the door
 * records (`/api/requests…`) and of the sessions (`/api/sessions…`), and the time from navigation
 * to the last response before the network is idle. Baseline: the same on an empty capture.
 *
 * `BENCH_MCPSCOPE_BIN` runs another build's CLI (a checkout of main, for a before/after).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { buildChurnCaptureFile } from './support/dashboard-traffic.js';
import { tempDb } from './store-common.js';
import { measured, type BenchOptions, type BenchRow } from './report.js';

const BENCH = 'dashboard-lists';
const BIN = process.env.BENCH_MCPSCOPE_BIN ?? fileURLToPath(new URL('../apps/proxy/bin/mcpscope.js', import.meta.url));
const ROUNDS = 3;

/** The CLI on `db`, ready when it prints its `--ready-json` line. */
async function serve(db: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--ui-port', '0', '--no-open', '--ready-json', '--db', db], { stdio: ['ignore', 'pipe', 'inherit'] });
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
}

/** One load in a fresh page: bytes per kind of response and the time to the last one before idle. */
async function loadOnce(page: Page, url: string): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  const totals: Load = { ms: 0, bytes: 0, door: 0, sessions: 0 };
  let last = 0;
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => {
    const path = new URL(urls.get(e.requestId) ?? 'about:blank').pathname;
    totals.bytes += e.encodedDataLength;
    if (path.startsWith('/api/requests')) totals.door += e.encodedDataLength;
    if (path.startsWith('/api/sessions')) totals.sessions += e.encodedDataLength;
    last = performance.now();
  });
  const started = performance.now();
  await page.goto(url);
  await page.waitForLoadState('networkidle', { timeout: 600_000 });
  totals.ms = last - started;
  await cdp.detach();
  return totals;
}

export async function bench(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const sessions = options.smoke ? 300 : 20_000;
  const calls = options.smoke ? 600 : 40_000;
  const records = sessions * 3 + calls;
  const file = tempDb('dashboard-lists');
  const built = buildChurnCaptureFile(file, sessions, calls);
  console.log(`built ${sessions} sessions, ${records} door records in ${built.seconds.toFixed(1)} s`);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const rounds = async (db: string): Promise<Load[]> => {
    const { url, child } = await serve(db);
    try {
      const out: Load[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        out.push(await loadOnce(page, url));
        await page.close();
      }
      return out;
    } finally {
      child.kill('SIGTERM');
    }
  };
  try {
    const empty = await rounds(tempDb('dashboard-lists-empty'));
    const full = await rounds(file);
    const emptyMs = measured({ bench: BENCH, metric: '', unit: '' }, empty.map((l) => l.ms)).value;
    const emptyBytes = measured({ bench: BENCH, metric: '', unit: '' }, empty.map((l) => l.bytes / 1e6)).value;
    const size = `${sessions.toLocaleString('en-US')} sessions, ${records.toLocaleString('en-US')} door records`;
    return [
      measured({ bench: BENCH, metric: `load → network idle, ${size}`, unit: 'ms', baseline: { name: 'empty capture', value: emptyMs } }, full.map((l) => l.ms)),
      measured({ bench: BENCH, metric: `bytes read at load, ${size}`, unit: 'MB', baseline: { name: 'empty capture', value: emptyBytes } }, full.map((l) => l.bytes / 1e6)),
      measured({ bench: BENCH, metric: `of which door records (/api/requests…)`, unit: 'MB' }, full.map((l) => l.door / 1e6)),
      measured({ bench: BENCH, metric: `of which sessions (/api/sessions…)`, unit: 'MB' }, full.map((l) => l.sessions / 1e6)),
    ];
  } finally {
    await browser.close();
  }
}
