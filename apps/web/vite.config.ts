import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// `mcpscope-source` resolves @mcpscope/protocol to its TypeScript: one copy of the protocol logic.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['mcpscope-source', 'module', 'browser', 'development|production'] },
  // Vitest runs in node (SSR resolution): resolve the workspace source there too, not a stale dist/.
  ssr: { resolve: { conditions: ['mcpscope-source'] } },
  // The widget sandbox page's script is built on its own (vite.sandbox.config.ts) into dist/sandbox/.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 6000 },
  server: {
    proxy: { '/api': 'http://127.0.0.1:7789', '/ws': { target: 'ws://127.0.0.1:7789', ws: true } },
  },
  test: { globalSetup: ['../../scripts/temp-root.ts'], include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'], environment: 'node' },
});
