import { configDefaults, defineConfig } from 'vitest/config';

// `mcpscope-source` makes workspace packages resolve to their TypeScript, not a stale dist/.
// `*.pending-merge.test.ts` holds tests for features still being built on other branches: not run
// by the gate until the lead renames them; `MCPSCOPE_PENDING=1 npx vitest run` runs them now.
export default defineConfig({
  resolve: { conditions: ['mcpscope-source'] },
  ssr: { resolve: { conditions: ['mcpscope-source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(process.env.MCPSCOPE_PENDING ? [] : ['**/*.pending-merge.test.ts'])],
    testTimeout: 20_000,
  },
});
