import { defineConfig } from 'vitest/config';

// `mcpscope-source` makes workspace packages resolve to their TypeScript, not a stale dist/.
export default defineConfig({
  resolve: { conditions: ['mcpscope-source'] },
  ssr: { resolve: { conditions: ['mcpscope-source'] } },
  test: { globalSetup: ['../../scripts/temp-root.ts'], include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 20_000 },
});
