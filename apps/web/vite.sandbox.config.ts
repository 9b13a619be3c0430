// The widget sandbox page's script (src/widget/sandbox): one self-contained file, built after the
// dashboard into dist/sandbox/sandbox.js. The widget listener inlines it into the page it serves
// on the widget's own origin, so it must share no chunk with the dashboard.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/sandbox',
    emptyOutDir: false,
    lib: { entry: 'src/widget/sandbox/sandbox-main.ts', formats: ['es'], fileName: () => 'sandbox.js' },
  },
});
