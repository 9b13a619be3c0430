// A filter carried from Exchanges into Connections: fields only exchanges have are not applied to
// HTTP requests (the filter line says so, the clients stay listed); a request filter that hides
// every request says how many it hides, with a way to clear it, never "no request arrived".
import { expect, test } from '@playwright/test';
import { openDashboard, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test('an exchange filter is not applied to requests, and a request filter says what it hides', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl, 'carried-filter-client');
  await client.listTools();
  await client.close();

  await page.getByTestId('filter-input').fill('method:tools/list');
  await page.getByTestId('connections-switch').click();
  await expect(page.getByTestId('connections')).toBeVisible();
  await expect(page.getByTestId('filter-status')).toContainText('not applied here: method: filters exchanges, not HTTP requests');
  await expect(page.getByTestId('client-item')).not.toHaveCount(0);
  await expect(page.getByTestId('door-clients')).not.toContainText('No HTTP request has reached the tap yet');

  await page.getByTestId('filter-input').fill('http.status:599');
  const hidden = page.getByTestId('door-hidden-by-filter');
  await expect(hidden).toContainText(/\d+ HTTP requests? hidden by the filter/);
  await expect(page.getByTestId('door-clients')).not.toContainText('No HTTP request has reached the tap yet');
  await hidden.getByRole('button', { name: 'clear' }).click();
  await expect(page.getByTestId('filter-input')).toHaveValue('');
  await expect(page.getByTestId('client-item')).not.toHaveCount(0);
});
