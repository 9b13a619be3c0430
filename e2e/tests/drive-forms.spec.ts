// Driving server-everything from the dashboard: a tool called from the form its inputSchema
// makes (an enum picked), a schema-breaking value refused then sent anyway, and the server's own
// questions answered in the panel: roots, an elicitation from the form of its requestedSchema,
// and a sampling request with a typed reply. The README's pictures come from here.
import { expect, test, type Page } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startEverything, type Everything } from '../support/everything.js';

// Tall enough for the elicitation's whole form in the README's picture.
test.use({ viewport: { width: 1400, height: 1300 } });

let everything: Everything;
let app: RunningMcpscope;
test.beforeAll(async () => {
  everything = await startEverything();
  app = await runMcpscope(['--target', everything.url]);
});
test.afterAll(async () => {
  await app?.stop();
  everything?.stop();
});

async function pick(page: Page, tool: string): Promise<void> {
  await page.locator(`[data-testid="drive-item"][data-name="${tool}"]`).click();
}

test('a form-built call, a breaking value sent anyway, and the server\'s questions answered', async ({ page }) => {
  await page.goto(app.dashboardLoginUrl);
  await expect(page.getByTestId('connection')).toHaveText('live');
  await page.getByTestId('drive-open').click();
  const panel = page.getByTestId('drive-panel');
  await page.getByTestId('drive-own').click();

  // The server asks the new session for its roots on the session's own stream.
  const roots = panel.locator('[data-testid="drive-ask"][data-method="roots/list"]');
  await roots.getByTestId('drive-root-uri').fill('file:///work/project');
  await roots.getByTestId('drive-roots-send').click();
  await expect(roots).toHaveCount(0);

  await page.getByTestId('drive-list-tools').click();
  await expect(page.getByTestId('drive-tab-tools')).not.toHaveText('tools (0)');

  // An enum from the tool's inputSchema, as a select with its help.
  await pick(page, 'get-annotated-message');
  await page.getByTestId('drive-field-messageType').selectOption('success');
  await page.getByTestId('drive-send').click();
  await expect(page.getByTestId('drive-result')).toHaveAttribute('data-status', 'ok');
  await expect(page.getByTestId('drive-answer')).toContainText('Operation completed successfully');
  await page.screenshot({ path: '../reports/screenshots/drive-form.png', clip: { x: 0, y: 0, width: 1400, height: 820 } });
  await expect(page.locator('[data-testid="exchange-row"][data-method="tools/call"] [data-testid="dashboard-mark"]').first()).toBeVisible();

  // A number field holding text: refused with the violation first, then sent anyway.
  await pick(page, 'get-sum');
  await page.getByTestId('drive-field-a').fill('two');
  await page.getByTestId('drive-send').click();
  await expect(page.getByTestId('drive-violations')).toContainText('$.params.arguments.a');
  await page.getByTestId('drive-send-anyway').click();
  await expect(page.getByTestId('drive-sent-anyway')).toBeVisible();
  await expect(page.getByTestId('drive-result')).not.toHaveAttribute('data-status', 'ok');

  // An elicitation, answered from the form of its requestedSchema.
  await pick(page, 'trigger-elicitation-request');
  await page.getByTestId('drive-send').click();
  const elicit = panel.locator('[data-testid="drive-ask"][data-method="elicitation/create"]');
  await elicit.getByTestId('drive-field-name').fill('Ada Lovelace');
  await elicit.getByTestId('drive-field-untitledSingleSelectEnum').selectOption('Joey');
  await elicit.screenshot({ path: '../reports/screenshots/drive-answer.png' });
  await elicit.getByTestId('drive-elicit-accept').click();
  await expect(page.getByTestId('drive-result')).toHaveAttribute('data-status', 'ok');
  await expect(page.getByTestId('drive-answer')).toContainText('Name: Ada Lovelace');

  // A sampling request, answered with a typed reply.
  await pick(page, 'trigger-sampling-request');
  await page.getByTestId('drive-field-prompt').fill('Say hello');
  await page.getByTestId('drive-send').click();
  const sampling = panel.locator('[data-testid="drive-ask"][data-method="sampling/createMessage"]');
  await expect(sampling).toContainText('Say hello');
  await sampling.getByTestId('drive-sampling-reply').fill('Hello from the dashboard');
  await sampling.getByTestId('drive-sampling-send').click();
  await expect(page.getByTestId('drive-answer')).toContainText('Hello from the dashboard');
});
