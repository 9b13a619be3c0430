import { defineConfig } from 'vitest/config';

/**
 * Files that load the machine on their own (hundreds of sessions, 100,000-frame imports, memory
 * ceilings, kill -9 and full disks, multi-second stalls) form the `heavy` lane, everything else the
 * `light` lane (`MCPSCOPE_TEST_LANE`). CI runs the two lanes side by side, each one file at a time,
 * so a heavy file never shares the machine with another heavy file (scripts/test.sh). Without a
 * lane every file runs, vitest's way.
 */
const HEAVY = [
  'test/reliability/**/*.test.ts',
  'test/store-warm-start.test.ts',
  'test/tick-writer.test.ts',
  'test/hub-resume.test.ts',
  'test/large-frames.test.ts',
  'test/stable-token.test.ts',
  'test/import-streaming.test.ts',
  'test/store-rebuild.test.ts',
  'test/store-durability.test.ts',
  'test/store-retention.test.ts',
  'test/store-write.test.ts',
  'test/verify-hostile-server.test.ts',
  'test/paged-lists.test.ts',
];
const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const lane = process.env.MCPSCOPE_TEST_LANE;
if (lane !== undefined && lane !== 'heavy' && lane !== 'light') throw new Error(`MCPSCOPE_TEST_LANE is heavy or light, not ${lane}`);

// `mcpscope-source` makes workspace packages resolve to their TypeScript, not a stale dist/.
export default defineConfig({
  resolve: { conditions: ['mcpscope-source'] },
  ssr: { resolve: { conditions: ['mcpscope-source'] } },
  test: {
    // Every temporary file of the run under one directory, removed when the run ends.
    globalSetup: ['../../scripts/temp-root.ts'],
    include: lane === 'heavy' ? HEAVY : ALL,
    exclude: lane === 'light' ? ['**/node_modules/**', ...HEAVY] : ['**/node_modules/**'],
    ...(lane !== undefined ? { maxWorkers: 1 } : {}),
    // A hang guard, not a speed check (speed lives in bench/): tests that move tens of MB or
    // spawn a CLI through tsx need more than 20 s when the two cores are shared.
    testTimeout: 60_000,
    // Hooks start real servers (server-everything, a CLI child, Chromium-free but npm-spawned
    // upstreams); on two busy cores that can take longer than vitest's 10 s default.
    hookTimeout: 60_000,
  },
});
