/// <reference lib="dom" />
// The page-side functions passed to page.evaluate run in Chromium, hence the DOM types.
/**
 * The dashboard's main thread while a widget preview misbehaves, in real Chromium: frame times
 * (rAF to rAF) in the dashboard with the Widget tab open on
 * - a quiet widget (the baseline, same run),
 * - a busy widget: 1,000 messages a second through the bridge (the sandbox passes 300 a second),
 * - runaway widgets: 10,000 a second through the bridge, and 10,000 a second straight at the
 *   dashboard (`top.postMessage`, around the sandbox) — both stopped by the preview; the row says
 *   how long that took.
 * Each scenario is a fresh page; frame times are taken over the first seconds after the widget
 * starts, which is when a runaway costs most.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { startMcpscope, type Mcpscope } from '@mcpscope/proxy/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startWidgetServer, type WidgetServer } from '../apps/proxy/test/support/widget-server.js';
import { floodWidgetHtml } from '../e2e/support/bad-widgets.js';
import { measured, type BenchOptions, type BenchRow } from './report.js';
import { fmt, percentile, printTable } from './stats.js';

const SCENARIOS = [
  { tool: 'quiet', label: 'a quiet widget (baseline)', html: '<!doctype html><p id="sent">quiet</p>' },
  { tool: 'busy', label: '1,000 notifications/s through the bridge', html: floodWidgetHtml('bridge', 1000) },
  { tool: 'flood_bridge', label: '10,000 notifications/s through the bridge', html: floodWidgetHtml('bridge', 10_000) },
  { tool: 'flood_around', label: '10,000 notifications/s straight at the dashboard', html: floodWidgetHtml('around', 10_000) },
] as const;

interface Run {
  p50: number;
  p95: number;
  max: number;
  /** ms from the widget's first frame to the preview stopping it; undefined when it was not stopped. */
  stoppedAfter?: number;
}

async function openWidget(page: Page, app: Mcpscope, tool: string): Promise<void> {
  await page.goto(app.dashboardLoginUrl);
  await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
  await page.locator('[data-testid="exchange-row"][data-method="tools/call"]').filter({ hasText: tool }).first().click();
  await page.getByTestId('detail-tab-widget').click();
  // The resource was handed to the sandbox (a runaway may be stopped before it shows anything).
  await page.getByTestId('widget-log-entry').filter({ hasText: 'sandbox ready' }).waitFor();
}

/** rAF-to-rAF times in the dashboard over `frames` frames, and when (if) the widget was stopped. */
function frameTimes(page: Page, frames: number): Promise<{ times: number[]; stoppedAfter?: number }> {
  return page.evaluate(async (frames) => {
    const times: number[] = [];
    const t0 = performance.now();
    let stoppedAfter: number | undefined;
    let last = await new Promise<number>((r) => requestAnimationFrame(r));
    for (let i = 0; i < frames; i++) {
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      times.push(now - last);
      last = now;
      if (stoppedAfter === undefined && document.querySelector('[data-testid="widget-stopped"]')) stoppedAfter = now - t0;
    }
    return { times, ...(stoppedAfter !== undefined ? { stoppedAfter } : {}) };
  }, frames);
}

async function run(browser: Browser, app: Mcpscope, tool: string, frames: number): Promise<Run> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await openWidget(page, app, tool);
    const { times, stoppedAfter } = await frameTimes(page, frames);
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1]!, ...(stoppedAfter !== undefined ? { stoppedAfter } : {}) };
  } finally {
    await page.close();
  }
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const frames = options.smoke ? 30 : 180;
  const rounds = options.smoke ? 1 : 3;
  const scenarios = options.smoke ? SCENARIOS.filter((s) => s.tool === 'quiet' || s.tool === 'flood_around') : SCENARIOS;
  let server: WidgetServer | undefined;
  let app: Mcpscope | undefined;
  let browser: Browser | undefined;
  try {
    server = await startWidgetServer(scenarios.map((s) => ({ tool: s.tool, uri: `ui://bench/${s.tool}.html`, html: s.html })));
    app = await startMcpscope({ target: server.url, db: ':memory:', port: 0, uiPort: 0 });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
    await client.listTools();
    for (const s of scenarios) {
      await client.callTool({ name: s.tool, arguments: {} });
      await client.readResource({ uri: `ui://bench/${s.tool}.html` });
    }
    await client.close();
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    const results = new Map<string, Run[]>();
    // Interleaved rounds: every scenario once per round, so drift on a shared machine hits all.
    for (let r = 0; r < rounds; r++) for (const s of scenarios) results.set(s.tool, [...(results.get(s.tool) ?? []), await run(browser, app, s.tool, frames)]);

    const base = results.get('quiet')!;
    const baseP95 = percentile([...base.map((x) => x.p95)].sort((a, b) => a - b), 50);
    const rows: BenchRow[] = [];
    const table: (string | number)[][] = [];
    for (const s of scenarios) {
      const runs = results.get(s.tool)!;
      const stopped = runs.filter((x) => x.stoppedAfter !== undefined).map((x) => x.stoppedAfter!);
      rows.push(
        measured(
          {
            bench: 'widget flood',
            metric: `dashboard frame time p95, ${s.label}`,
            unit: 'ms',
            ...(s.tool === 'quiet' ? {} : { baseline: { name: 'quiet widget', value: baseP95 } }),
            note: `p50 ${fmt(percentile(runs.map((x) => x.p50).sort((a, b) => a - b), 50), 1)} ms, worst frame ${fmt(Math.max(...runs.map((x) => x.max)), 0)} ms over ${frames} frames${stopped.length ? `; stopped after ${fmt(percentile(stopped.sort((a, b) => a - b), 50), 0)} ms (${stopped.length}/${runs.length} runs)` : ''}`,
          },
          runs.map((x) => x.p95),
        ),
      );
      table.push([s.label, fmt(percentile(runs.map((x) => x.p50).sort((a, b) => a - b), 50), 1), fmt(percentile(runs.map((x) => x.p95).sort((a, b) => a - b), 50), 1), fmt(Math.max(...runs.map((x) => x.max)), 0), stopped.length ? `${fmt(percentile(stopped, 50), 0)} ms` : '—']);
    }
    printTable(`Dashboard frame times with a widget preview open (${frames} frames, ${rounds} round(s); median over rounds)`, ['widget', 'p50 (ms)', 'p95 (ms)', 'worst (ms)', 'stopped after'], table);
    return rows;
  } finally {
    await browser?.close();
    await app?.close();
    await server?.close();
  }
}
