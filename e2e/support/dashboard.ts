/**
 * Helpers for the dashboard specs: an official SDK client pointed at the tap, raw HTTP to the
 * tap for traffic no SDK would send, and locators for the timeline.
 */
import type { Page } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningMcpscope } from './mcpscope-process.js';

export async function sdkClient(mcpUrl: string, name = 'e2e-client'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

/** POSTs bytes that are not JSON-RPC straight to the tap, as a broken client would. */
export async function postJunk(mcpUrl: string, body = 'this is not json {'): Promise<number> {
  const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
  await res.arrayBuffer();
  return res.status;
}

export async function openDashboard(page: Page, app: RunningMcpscope): Promise<void> {
  await page.goto(app.dashboardLoginUrl);
  await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
}

export const rows = (page: Page) => page.getByTestId('exchange-row');

export const row = (page: Page, method: string, status?: string) =>
  page.locator(`[data-testid="exchange-row"][data-method="${method}"]${status ? `[data-status="${status}"]` : ''}`);

export const SCREENSHOTS = new URL('../../reports/screenshots/', import.meta.url).pathname;
