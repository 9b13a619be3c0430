// The live OTLP export as the dashboard shows it: with `--otlp` pointing at a backend that is not
// there, the calls still go through, and the top bar says where spans go and that they failed
// (with the reason on hover), so lost spans are never silent.
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';

/** A loopback port nothing listens on: the tracing backend is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let app: RunningMcpscope;
test.beforeAll(async () => {
  app = await runMcpscope(['--otlp', `http://127.0.0.1:${await closedPort()}`], { OTEL_BSP_SCHEDULE_DELAY: '50' });
});
test.afterAll(() => app?.stop());

test('the top bar counts the spans a down backend lost, and the tap keeps answering', async ({ page }) => {
  expect(app.output()).toMatch(/OTLP traces:\s+http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
  await page.goto(app.dashboardLoginUrl);
  const status = page.getByTestId('otlp-status');
  await expect(status).toContainText('OTLP → 127.0.0.1');
  await expect(status).toContainText('0 sent');

  const client = new Client({ name: 'e2e-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
  const result = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'retirement', budget: 60 } });
  expect(result.structuredContent).toMatchObject({ gifts: expect.any(Array) });
  await client.close();

  await expect(page.getByTestId('otlp-failed')).toHaveText(/^\d+ failed$/);
  await expect(status).toHaveClass(/lost/);
  await expect(status).toHaveAttribute('title', /Last error: /);
});
