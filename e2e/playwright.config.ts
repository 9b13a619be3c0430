import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright cannot download its own browser here (toolchain.md, gotcha 5).
export default defineConfig({
  testDir: './tests',
  // Every temporary file of the run (captures, exports) under one directory, removed at the end.
  globalSetup: '../scripts/temp-root.ts',
  timeout: 90_000,
  // Monaco's chunk is 4 MB: on 2 busy cores its first paint can take several seconds.
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: '../reports/e2e-artifacts',
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
