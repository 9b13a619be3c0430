// A host's churn: 20,001 sessions in one conversation, each opened with three POSTs, after 5,000
// conversations of one session each (one POST each), so 65,003 door records and 5,001
// conversations — more sessions, records and conversations than the dashboard holds. Built through the real
// capture pipeline (the large-capture spec's fixture), then in Chromium: the conversation's
// sessions scroll in their own box, drawn by position from the server's window over them; a
// session far from the newest, picked there, narrows the timeline to its exchanges and is left
// again; its HTTP request, far older than the records the dashboard holds, opens from its exchange
// and is located in the Connections table, which reads the server's list by windows; rows far
// from the top are the ones the API lists there; the clients list counts the sessions of the
// records it holds. The sidebar pages the server's list of conversations (it never reads them
// all); one far from the top, named in the URL or picked on a later page, filters the timeline
// to its session and is left again. A page's one-session conversations show their sessions from
// one read for the page, not a read a row.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import type { ConversationSummary, ConversationsWindowPage, RequestsWindowPage, SessionSummary } from '@mcpscope/protocol';
import { buildChurnCaptureFile } from '../../bench/support/dashboard-traffic.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';

/** MCPSCOPE_E2E_CHURN_DB names a capture built before with these numbers (local runs on a busy machine). */
const SESSIONS = 20_001;
/** Conversations of one session each, older than the churned sessions' one. */
/** Past CONVERSATIONS_WHOLE (2,000): the sidebar reads them by windows; 5,000 keep the build short. */
const CONVERSATIONS = 5_000;
const RECORDS = CONVERSATIONS + SESSIONS * 3;
const SESSION_HEIGHT = 96;
const REQUEST_HEIGHT = 24;
/** Conversations on a page of the sidebar (apps/web/src/store/conversation-windows.ts, CONVERSATIONS_PAGE). */
const PAGE = 100;
/** The newest door records the dashboard holds past its cap (apps/web/src/store/door-store.ts, DOOR_RECENT): the clients list's horizon. */
const DOOR_RECENT = 5000;

let app: RunningMcpscope;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dbFile = process.env.MCPSCOPE_E2E_CHURN_DB ?? join(mkdtempSync(join(tmpdir(), 'mcpscope-e2e-churn-')), 'capture.db');
  if (!process.env.MCPSCOPE_E2E_CHURN_DB) buildChurnCaptureFile(dbFile, SESSIONS, 0, CONVERSATIONS);
  app = await runMcpscope([], {}, { dbFile });
});
test.afterAll(async () => {
  await app?.stop();
});

/** The generator's session key of the `s`-th session (bench/support/capture-traffic.ts). */
const sessionKey = (s: number) => `${s.toString(16).padStart(8, '0')}-022c-450c-bcce-c28d3f513d93`;

/** What the API answers on `path`, with the dashboard's token. */
async function apiGet<T>(path: string): Promise<T> {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token');
  const res = await fetch(`${app.dashboardUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as T;
}

/** The door record at `position` of the unfiltered list, as the API answers. */
async function recordAt(position: number): Promise<number> {
  return (await apiGet<RequestsWindowPage>(`/api/requests/window?offset=${position}&limit=1`)).requests[0]!.id;
}

/** The conversation at `position` of the sidebar's list, and its one session, as the API answers. */
async function conversationAt(position: number): Promise<{ key: string; session: string }> {
  const key = (await apiGet<ConversationsWindowPage>(`/api/conversations/window?offset=${position}&limit=1`)).conversations[0]!.key;
  const { sessions } = await apiGet<{ conversation: ConversationSummary; sessions: SessionSummary[] }>(`/api/conversations/${key}`);
  return { key, session: sessions[0]!.sessionKey };
}

/** Scrolls a list drawn by position so item `position` is near the top, as a drag of its scrollbar does. */
async function scrollTo(list: Locator, position: number, count: number, itemHeight: number, header = 0): Promise<void> {
  await list.evaluate((el, { position, count, itemHeight, header }) => {
    const range = el.scrollHeight - el.clientHeight;
    const span = count * itemHeight - (el.clientHeight - header - itemHeight);
    el.scrollTop = (position * itemHeight * range) / Math.max(range, span);
  }, { position, count, itemHeight, header });
}

test('20,001 sessions and 65,003 door records: the sidebar and the Connections table scroll, a far record opens', async ({ page }) => {
  const pageErrors: Error[] = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  await page.goto(app.dashboardLoginUrl);

  // The sidebar: the newest conversation holds every churned session; opened, its sessions scroll in a box.
  const conversation = page.getByTestId('conversation-item').first();
  await expect(conversation).toHaveAttribute('data-sessions', String(SESSIONS));
  await conversation.getByTestId('conversation-toggle').click();
  const sessions = conversation.getByTestId('session-scroller');
  await expect(sessions).toHaveAttribute('data-count', String(SESSIONS));
  expect(await sessions.getByTestId('session-item').count()).toBeLessThan(40);
  const middle = 12_345;
  await scrollTo(sessions, middle, SESSIONS, SESSION_HEIGHT);
  const far = sessions.locator(`li[aria-posinset="${middle + 1}"]`);
  await expect(far.locator(`[title="${sessionKey(middle)}"]`)).toBeVisible();
  await far.getByTestId('session-item').click();
  await expect(far.getByTestId('session-item')).toHaveAttribute('aria-pressed', 'true');

  // The timeline shows that session's exchanges only, and says so where the filter is.
  const timeline = page.getByTestId('timeline');
  const rows = timeline.getByTestId('exchange-row');
  await expect(page.getByTestId('session-scope')).toBeVisible();
  const sessionOf = (row: Locator) => row.locator('.col-session');
  await expect(sessionOf(rows.first())).toHaveAttribute('title', sessionKey(middle));
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(0);
  await expect(timeline.locator(`.col-session[title="${sessionKey(middle)}"]`)).toHaveCount(shown);

  // Leaving it (a second click): every session's exchanges again, the newest last.
  await far.getByTestId('session-item').click();
  await expect(far.getByTestId('session-item')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('session-scope')).toHaveCount(0);
  await expect(sessionOf(rows.last())).toHaveAttribute('title', sessionKey(SESSIONS - 1));

  // Picked again: its initialize leads to the HTTP request below. The filter bar completes the
  // exact form with its key (a session the dashboard read by key, far from the newest it holds).
  await far.getByTestId('session-item').click();
  await expect(sessionOf(rows.first())).toHaveAttribute('title', sessionKey(middle));
  const input = page.getByTestId('filter-input');
  await input.click();
  await input.pressSequentially(`session=${sessionKey(middle).slice(0, 6)}`);
  await expect(page.getByTestId('suggestions')).toContainText(`session=${sessionKey(middle)}`);
  await input.fill('');
  await input.press('Escape');

  // The export menu offers the session chosen in the sidebar first, chosen already, among a few
  // hundred: the rest are reached through the sidebar, as the picker says.
  await page.getByTestId('export-menu-button').click();
  const exportPanel = page.getByTestId('export-panel');
  const picker = exportPanel.locator('select[aria-label="Session"]');
  await expect(picker).toHaveValue(sessionKey(middle));
  expect(await picker.locator('option').count()).toBeLessThanOrEqual(201);
  await expect(exportPanel.getByTestId('sessions-not-offered')).toContainText('more: choose one in the sidebar');
  await page.keyboard.press('Escape');
  await expect(exportPanel).toHaveCount(0);

  // The session's initialize, from the timeline: its HTTP request at the door is far older than
  // the records the dashboard holds; the link opens it in Connections, read by id and located in
  // the table of every request.
  const initialize = page.getByTestId('timeline').getByTestId('exchange-row').first();
  await expect(initialize).toContainText('initialize');
  await initialize.click();
  const http = page.getByTestId('detail-pane').getByTestId('http-layer').first();
  await http.locator('summary').click();
  const doorId = CONVERSATIONS + 3 * middle + 1;
  await expect(http.getByTestId('door-link')).toContainText(`#${doorId}`);
  await http.getByTestId('door-link').click();
  await expect(page.getByTestId('door-detail')).toHaveAttribute('aria-label', `HTTP request ${doorId}`);
  const table = page.getByTestId('door-requests');
  await expect(table).toHaveAttribute('aria-rowcount', String(RECORDS));
  await expect(table.locator(`[data-id="${doorId}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(table.locator(`[data-id="${doorId}"]`)).toHaveAttribute('aria-rowindex', String(doorId));

  // Scrolled elsewhere: the rows there are the API's, and one opens.
  const position = 23_456;
  await scrollTo(table, position, RECORDS, REQUEST_HEIGHT, 26);
  const row = table.locator(`[data-testid="door-request"][aria-rowindex="${position + 1}"]`);
  const id = await recordAt(position);
  await expect(row).toHaveAttribute('data-id', String(id));
  await row.click();
  await expect(page.getByTestId('door-detail')).toHaveAttribute('aria-label', `HTTP request ${id}`);

  // The clients list: one client (every session is in one conversation), with the sessions its
  // held records name (three records a session, the newest DOOR_RECENT of them).
  const named = new Set(Array.from({ length: DOOR_RECENT }, (_, i) => Math.floor((RECORDS - 1 - i) / 3)));
  const clients = page.getByTestId('door-clients').getByTestId('client-item');
  await expect(clients).toHaveCount(1);
  await expect(clients).toHaveAttribute('data-sessions', String(named.size));
  expect(pageErrors.map((e) => e.message)).toEqual([]);
});

test('5,001 conversations: the sidebar pages the server list, a far one filters the timeline and is left', async ({ page }) => {
  const pageErrors: Error[] = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  // Reads of sessions the browser makes.
  let sessionReads = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.startsWith('/api/sessions')) sessionReads++;
  });
  // Every conversation the API sends the browser, counted from its answers.
  let sent = 0;
  const whole: string[] = [];
  page.on('response', async (res) => {
    const path = new URL(res.url()).pathname;
    if (!path.startsWith('/api/conversations')) return;
    if (path === '/api/conversations') whole.push(res.url());
    const body = (await res.json().catch(() => ({}))) as { conversations?: unknown[]; conversation?: unknown };
    sent += body.conversations?.length ?? (body.conversation ? 1 : 0);
  });

  // Named in the URL (a shared link): far from the top, read by key, drawn after the page.
  const far = await conversationAt(4_000);
  const login = new URL(app.dashboardLoginUrl);
  login.searchParams.set('q', `conversation:${far.key}`);
  await page.goto(login.toString());
  const total = page.getByTestId('conversation-total');
  await expect(total).toHaveText(String(CONVERSATIONS + 1));
  await expect(page.getByTestId('conversation-header')).toHaveAttribute('data-key', far.key);
  const chosen = page.locator(`[data-testid="conversation-item"][data-key="${far.key}"]`);
  await expect(chosen.getByTestId('conversation-choose')).toHaveAttribute('aria-pressed', 'true');
  // Its sessions list: its one session.
  await expect(chosen.locator(`[title="${far.session}"]`).first()).toBeVisible();
  // The timeline shows that conversation's exchanges only (its session's initialize).
  const rows = page.getByTestId('timeline').getByTestId('exchange-row');
  const sessionOf = (row: Locator) => row.locator('.col-session');
  await expect(sessionOf(rows.first())).toHaveAttribute('title', far.session);
  await expect(rows).toHaveCount(1);

  // Left: every conversation's exchanges again, the newest last.
  await chosen.getByTestId('conversation-choose').click();
  await expect(page.getByTestId('conversation-header')).toHaveCount(0);
  await expect(sessionOf(rows.last())).toHaveAttribute('title', sessionKey(SESSIONS - 1));

  // The next page, older: the API's conversations at those positions; one picked there filters the timeline.
  const items = page.getByTestId('conversation-item');
  await expect(items).toHaveCount(PAGE);
  await expect(page.getByTestId('conversation-page')).toHaveText(`1–${PAGE} of ${CONVERSATIONS + 1}`);
  // Every conversation on it but the churned one (closed) shows its one session.
  await expect(items.getByTestId('session-item')).toHaveCount(PAGE - 1);
  sessionReads = 0;
  await page.getByTestId('conversation-pager').getByRole('button', { name: 'older ›' }).click();
  await expect(page.getByTestId('conversation-page')).toHaveText(`${PAGE + 1}–${2 * PAGE} of ${CONVERSATIONS + 1}`);
  // Each of its one-session conversations shows its session, all of them from one read.
  await expect(items.getByTestId('session-item')).toHaveCount(PAGE);
  expect(sessionReads).toBe(1);
  const next = await conversationAt(PAGE + 5);
  const picked = page.locator(`[data-testid="conversation-item"][data-key="${next.key}"]`);
  await expect(items.nth(5)).toHaveAttribute('data-key', next.key);
  await picked.getByTestId('conversation-choose').click();
  await expect(page.getByTestId('conversation-header')).toHaveAttribute('data-key', next.key);
  await expect(sessionOf(rows.first())).toHaveAttribute('title', next.session);
  await expect(rows).toHaveCount(1);
  await picked.getByTestId('conversation-choose').click();
  await expect(page.getByTestId('conversation-header')).toHaveCount(0);

  // The browser read a few pages and a few conversations by key, never the whole list.
  expect(whole).toEqual([]);
  expect(sent).toBeLessThan(1000);
  expect(pageErrors.map((e) => e.message)).toEqual([]);
});
