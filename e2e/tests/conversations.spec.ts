// Conversations in Chromium: the ChatGPT stand-in (apps/proxy/test/support/chatgpt-standin.ts,
// each behaviour sourced in its header) and the official SDK client against real
// server-everything, through the real mcpscope. One chat of ten calls, probing the 2026-07-28 era
// before each session, is one conversation of ten sessions with its churn and era lane; a second
// chat at the same time stays apart; an SDK client's one long session is a conversation of one
// session; conversation: and session: filter; a replay into the churned conversation finds a
// live session when the original is gone and says which. At the door (the Connections view) the
// chat is one client too, its story folded to a few lines, a click from its conversation.
//
// The chat probes alone first: a probe carries no session and no conversation id, so it joins the
// client's latest conversation by time (a guess); with another chat busy at the same moment that
// guess could go either way. Then the same chat (without probing) goes on while the other chat and
// the SDK client run at the same time: sessions that name their conversation stay apart.
import { expect, test, type Page } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ChatGptStandIn } from '../../apps/proxy/test/support/chatgpt-standin.js';
import { startEverything, type Everything } from '../../apps/proxy/test/support/everything.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, rows } from '../support/dashboard.js';

test.use({ viewport: { width: 1440, height: 900 } });

let everything: Everything;
let app: RunningMcpscope;
let chat: ChatGptStandIn;
let other: ChatGptStandIn;

test.beforeAll(async () => {
  everything = await startEverything('streamableHttp');
  app = await runMcpscope(['--target', everything.url]);
  chat = new ChatGptStandIn({ mcpUrl: app.mcpUrl, probe: 'every-session' });
  for (let i = 0; i < 10; i++) await chat.callTool(i % 2 ? 'get-sum' : 'echo', i % 2 ? { a: i, b: 1 } : { message: `call ${i}` });
  const goesOn = new ChatGptStandIn({ mcpUrl: app.mcpUrl, conversationId: chat.conversationId });
  other = new ChatGptStandIn({ mcpUrl: app.mcpUrl });
  const sdk = new Client({ name: 'my-agent', version: '2.1.0' });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
  await Promise.all([
    (async () => {
      for (let i = 0; i < 2; i++) await goesOn.callTool('echo', { message: `later ${i}` });
      chat.sessions.push(...goesOn.sessions);
    })(),
    (async () => {
      for (let i = 0; i < 3; i++) await other.callTool('echo', { message: `elsewhere ${i}` });
    })(),
    (async () => {
      await sdk.listTools();
      for (let i = 0; i < 4; i++) await sdk.callTool({ name: 'get-sum', arguments: { a: i, b: 2 } });
    })(),
  ]);
  await sdk.close();
});
test.afterAll(async () => {
  await app?.stop();
  await everything?.close();
});

const conversation = (page: Page, host: string) => page.getByTestId('conversation-item').filter({ hasText: host });

/** The key of the conversation that carries the stand-in's own id, as the API lists it. */
async function keyOf(hostId: string): Promise<string> {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token')!;
  const res = await fetch(`${app.dashboardUrl}/api/conversations`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { conversations: { key: string; hostId?: string }[] };
  return body.conversations.find((c) => c.hostId === hostId)!.key;
}

test('a ChatGPT chat of twelve calls is one conversation of twelve sessions, with its churn and era lane; the timeline shows it whole', async ({ page }) => {
  await openDashboard(page, app);
  const items = page.getByTestId('conversation-item');
  // Two ChatGPT chats and the SDK client: three conversations, not fifteen sessions.
  await expect(items).toHaveCount(3);
  const key = await keyOf(chat.conversationId);
  const mine = page.locator(`[data-testid="conversation-item"][data-key="${key}"]`);
  await expect(mine).toHaveAttribute('data-sessions', '12');
  await expect(mine).toContainText('ChatGPT');
  await expect(mine).toContainText('12 calls');
  // Twelve sessions by their own openai/session; the probes (no session of their own) by time.
  await expect(mine).toContainText('joined by openai/session ×12, client and time ×10');
  await expect(mine.getByTestId('conversation-churn-badge')).toContainText('churn: 12 sessions, 12 initialize, 12 tools/list');
  const otherKey = await keyOf(other.conversationId);
  await expect(page.locator(`[data-testid="conversation-item"][data-key="${otherKey}"]`)).toHaveAttribute('data-sessions', '3');
  const sdk = conversation(page, 'my-agent');
  await expect(sdk).toHaveAttribute('data-sessions', '1');
  await expect(sdk.getByTestId('session-item')).toHaveCount(1);
  await expect(sdk).not.toContainText('churn');

  // Its sessions, each with the revision it agreed.
  await mine.getByTestId('conversation-toggle').click();
  await expect(mine.getByTestId('session-item')).toHaveCount(12);
  await expect(mine.getByTestId('session-item').first()).toContainText('2025-06-18');

  // Choosing it: the filter says so, the header tells the churn and the era, the timeline is the whole chat.
  await mine.getByTestId('conversation-choose').click();
  await expect(page.getByTestId('filter-input')).toHaveValue(`conversation:${key}`);
  await expect(page).toHaveURL(new RegExp(`q=conversation%3A${key}`));
  const header = page.getByTestId('conversation-header');
  await expect(header).toContainText('ChatGPT');
  await expect(header.getByTestId('conversation-revision')).toHaveText('2025-06-18');
  await expect(header.getByTestId('conversation-churn')).toContainText('12 sessions · 12 initialize · 12 tools/list for 12 tools/call');
  const steps = header.getByTestId('era-step');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toHaveAttribute('data-kind', 'discover');
  await expect(steps.nth(0)).toHaveAttribute('data-outcome', 'failed');
  await expect(steps.nth(0)).toHaveAttribute('data-count', '10');
  await expect(steps.nth(0)).toContainText('server/discover 2026-07-28 → HTTP 400');
  await expect(steps.nth(1)).toContainText('initialize 2025-06-18 → 2025-06-18');
  await expect(steps.nth(1)).toContainText('fallback');
  await expect(steps.nth(1)).toHaveAttribute('data-count', '10');
  // The two later sessions did not probe: a plain initialize each.
  await expect(steps.nth(2)).toHaveAttribute('data-count', '2');
  await expect(steps.nth(2)).not.toContainText('fallback');
  await expect(header.getByTestId('era-dot')).toHaveCount(22);
  await expect(header).toContainText('10 probes, 10 refused, 10 fallbacks to initialize');
  // Per call: (the probe,) initialize, initialized, tools/list, tools/call — and a thin line at each new session.
  // (The timeline renders only the rows in view: count through the filter's own tally.)
  await expect(page.getByTestId('filter-status')).toContainText('58 of');
  await expect(page.locator('[data-testid="exchange-row"][data-session-break]').first()).toBeVisible();
  // The README's picture (docs/conversations.png is a copy of this one).
  await page.screenshot({ path: `${SCREENSHOTS}conversations.png`, clip: { x: 0, y: 0, width: 1440, height: 620 } });

  // The probe loop is a warning on the third probe, with its rules a click away.
  await page.getByTestId('filter-input').fill(`conversation:${key} method:server/discover`);
  await expect(rows(page)).toHaveCount(10);
  await rows(page).nth(2).click();
  await expect(page.locator('[data-code="discover-probe-loop"]')).toContainText('fell back to initialize every time');
  await expect(page.getByTestId('diagnostic-help')).toBeVisible();
});

test('conversation: autocompletes and session: still narrows to one session', async ({ page }) => {
  await openDashboard(page, app);
  const key = await keyOf(other.conversationId);
  const input = page.getByTestId('filter-input');
  await input.click();
  await input.pressSequentially('conversation:');
  await expect(page.getByTestId('suggestions')).toContainText(`conversation:${key}`);
  await input.fill(`conversation:${key}`);
  await input.press('Escape');
  // Three calls, each in its own session of four exchanges, a thin line where each new one begins.
  await expect(rows(page)).toHaveCount(12);
  await expect(page.locator('[data-testid="exchange-row"][data-session-break]')).toHaveCount(2);
  await input.fill(`session:${other.sessions[1]}`);
  await expect(rows(page)).toHaveCount(4);
  await expect(page.getByTestId('conversation-header')).toHaveCount(0);
});

test('a replay into the churned conversation goes into its newest live session when the original is gone, and says which', async ({ page }) => {
  // The server forgets the chat's first session (ChatGPT never ends its sessions; servers expire them).
  const gone = chat.sessions[0]!;
  await fetch(everything.url, { method: 'DELETE', headers: { 'mcp-session-id': gone } });
  await openDashboard(page, app);
  await page.getByTestId('filter-input').fill(`session:${gone} method:tools/call`);
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().click();
  await page.getByTestId('replay-button').click();
  await expect(page.getByTestId('replay-editor').locator('.view-lines')).toContainText('tools/call', { timeout: 20_000 });
  await expect(page.getByTestId('replay-mode-session')).toBeChecked();
  await page.getByTestId('replay-send').click();
  const result = page.getByTestId('replay-result');
  await expect(result).toHaveAttribute('data-status', 'ok');
  const note = page.getByTestId('replay-session-fallback');
  // The newest session of the chat is the last one opened.
  const newest = chat.sessions[chat.sessions.length - 1]!;
  await expect(note).toHaveAttribute('data-session', newest);
  await expect(note).toContainText(`Session ${gone} is gone`);
  await expect(note).toContainText('newest live session of conversation');
  await expect(result).toContainText(newest.slice(0, 12));
});

test('at the door the chat is one client of twelve sessions, its story a few lines, a click from its timeline', async ({ page }) => {
  await openDashboard(page, app);
  const key = await keyOf(chat.conversationId);
  await page.getByTestId('connections-switch').click();
  const client = page.locator(`[data-testid="client-item"][data-client="conversation:${key}"]`);
  await expect(client).toHaveAttribute('data-sessions', '12');
  await expect(client).toHaveAttribute('data-verdict', 'connected');
  await expect(client).toContainText('ChatGPT');
  // Three clients at the door, as in the sidebar: two chats and the SDK client.
  await expect(page.getByTestId('client-item')).toHaveCount(3);
  await client.click();
  await expect(page.getByTestId('flow-verdict')).toHaveText('connected (2025-06-18)');
  await expect(page.getByTestId('flow')).toContainText('58 requests in 12 MCP sessions');
  const steps = page.getByTestId('flow-step');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toHaveAttribute('data-check', 'era-probe');
  await expect(steps.nth(0)).toHaveAttribute('data-colour', 'amber');
  await expect(steps.nth(0)).toContainText('server/discover → HTTP 400 ×10');
  await expect(steps.nth(1)).toContainText('initialize → 2025-06-18 ×12');
  await expect(steps.nth(3)).toContainText('12 tools/call');
  await page.getByTestId('flow-conversation').click();
  await expect(page.getByTestId('filter-input')).toHaveValue(`conversation:${key}`);
  await expect(page.getByTestId('conversation-header')).toContainText('ChatGPT');
});
