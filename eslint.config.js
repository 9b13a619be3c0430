// Lint: TypeScript sanity plus the import boundaries of DESIGN.md, enforced per folder:
// apps → packages only; apps/proxy and apps/web never import each other; packages/protocol
// stays pure (no Node built-ins, no I/O libraries) so the browser runs the same code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = { group: ['node:*'], message: 'packages/protocol is browser-safe: no Node built-ins.' };
const ioLibraries = {
  group: ['better-sqlite3', 'hono', 'hono/*', '@hono/*', 'ws', 'undici', 'react', 'react-dom', 'zustand'],
  message: 'packages/protocol does no I/O and knows no framework.',
};
const intoApps = { group: ['@mcpscope/proxy', '@mcpscope/web', '**/apps/**'], message: 'packages never import apps.' };
const proxyToWeb = { group: ['@mcpscope/web', '**/web/src/**'], message: 'apps/proxy and apps/web share code only through packages/.' };
const webToProxy = { group: ['@mcpscope/proxy', '**/proxy/src/**', 'node:*'], message: 'apps/web and apps/proxy share code only through packages/.' };

// Inside apps/proxy/src, layers from the top down. A folder imports only folders of lower layers
// (and itself); the features of one layer never import each other: they meet in compose/.
const PROXY_LAYERS = [
  ['commands'],
  ['compose'],
  ['api'],
  ['tap', 'hub', 'replay', 'interchange', 'demo', 'mock', 'verify', 'otlp', 'agent-mcp', 'door', 'widget-host', 'audit'],
  ['upstream'],
  ['capture'],
  ['redaction'],
  ['core'],
];
function proxyLayerRules() {
  return PROXY_LAYERS.flatMap((layer, index) =>
    layer.map((folder) => {
      const above = PROXY_LAYERS.slice(0, index).flat();
      const siblings = layer.filter((other) => other !== folder);
      const patterns = [proxyToWeb];
      if (above.length) patterns.push({ group: above.map((f) => `**/${f}/**`), message: `apps/proxy/src/${folder}/ may not import a folder above it (${above.join(', ')}): the layers go one way (DESIGN.md, Layout).` });
      if (siblings.length) patterns.push({ group: siblings.map((f) => `**/${f}/**`), message: `features never import each other (${siblings.join(', ')}): they meet in compose/; a function two features need belongs a layer down.` });
      return { files: [`apps/proxy/src/${folder}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
    }),
  );
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'reports/**', '**/*.d.ts', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['packages/protocol/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, ioLibraries, intoApps] }] },
  },
  {
    files: ['apps/proxy/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [proxyToWeb] }] },
  },
  ...proxyLayerRules(),
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [webToProxy] }] },
  },
);
