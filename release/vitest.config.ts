import { defineConfig } from 'vitest/config';

// Installing with npm and starting real processes under three Node versions takes minutes, not
// the default seconds; files run one at a time so installs do not compete for the 2 cores.
export default defineConfig({
  test: {
    globalSetup: ['../scripts/temp-root.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
