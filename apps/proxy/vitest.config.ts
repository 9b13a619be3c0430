import { defineConfig } from 'vitest/config';

// `mcpscope-source` makes workspace packages resolve to their TypeScript, not a stale dist/.
export default defineConfig({
  resolve: { conditions: ['mcpscope-source'] },
  ssr: { resolve: { conditions: ['mcpscope-source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check (speed lives in bench/): tests that move tens of MB or
    // spawn a CLI through tsx need more than 20 s when the two cores are shared.
    testTimeout: 60_000,
    // Hooks start real servers (server-everything, a CLI child, Chromium-free but npm-spawned
    // upstreams); on two busy cores that can take longer than vitest's 10 s default.
    hookTimeout: 60_000,
  },
});
