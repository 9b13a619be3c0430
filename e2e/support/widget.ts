/**
 * Helpers for the widget preview specs: open a call's Widget tab, reach the widget inside its two
 * sandbox frames, read the event log.
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

/** Selects the newest tools/call of `tool` and opens its Widget tab. */
export async function openWidget(page: Page, tool: string): Promise<void> {
  await page.locator(`[data-testid="exchange-row"][data-method="tools/call"]`).filter({ hasText: tool }).first().click();
  await page.getByTestId('detail-tab-widget').click();
  await expect(page.getByTestId('widget-frame')).toBeVisible();
}

/** The widget's own document: the inner frame of mcpscope's sandbox page. */
export function widgetFrame(page: Page): FrameLocator {
  return page.frameLocator('[data-testid="widget-frame"]').frameLocator('iframe');
}

export function logEntries(page: Page, kind?: string): Locator {
  const all = page.getByTestId('widget-log-entry');
  return kind ? all.and(page.locator(`[data-kind="${kind}"]`)) : all;
}

/** Answers the dashboard's "This widget wants to call TOOL on SERVER" question. */
export async function answerConsent(page: Page, tool: string, answer: 'allow' | 'deny'): Promise<void> {
  const prompt = page.locator(`[data-testid="widget-consent"][data-tool="${tool}"]`);
  await expect(prompt).toBeVisible();
  await prompt.getByTestId(`widget-consent-${answer}`).click();
  await expect(prompt).toHaveCount(0);
}
