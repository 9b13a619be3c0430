// Lint: TypeScript sanity plus the import boundaries of DESIGN.md, enforced per folder:
// apps → packages only; apps/proxy and apps/web never import each other; packages/protocol
// stays pure (no Node built-ins, no I/O libraries) so the browser runs the same code. Inside each
// app, its layer table (PROXY_LAYERS, WEB_LAYERS) says which folder may import which.
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
  ['tap', 'hub', 'replay', 'interchange', 'demo', 'mock', 'verify', 'otlp', 'agent-mcp', 'door', 'widget-host', 'audit', 'evidence', 'intercept', 'load'],
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

// Inside apps/web/src, layers from the top down; App.tsx and main.tsx (the entry) sit above them
// all. The shell (app/) composes the page: the syncs, the view predicate, the panels. Views host
// tools; compare and re-run are built on replay; ui/ holds what several features show (status
// looks, frame bodies, JSON views); store/ the dashboard's state. As in the proxy: a folder
// imports only folders of lower layers (and itself); the features of one layer never import
// each other; something two of them need moves a layer down. Tests (*.test.*) may reach across
// layers to run real collaborators together.
const WEB_LAYERS = [
  ['app'],
  ['timeline', 'detail', 'door', 'frames', 'conversations', 'first-run', 'readiness'],
  ['capture', 'compare', 'rerun', 'export', 'filter', 'sessions', 'widget', 'front-door', 'drive', 'intercept'],
  ['replay'],
  ['ui'],
  ['store'],
  ['api'],
  ['lib'],
];
const intoWebEntry = { group: ['**/App.js', '**/main.js'], caseSensitive: true, message: 'App.tsx and main.tsx are the entry of apps/web: no folder imports them.' };
function webLayerRules() {
  return WEB_LAYERS.flatMap((layer, index) =>
    layer.map((folder) => {
      const above = WEB_LAYERS.slice(0, index).flat();
      const siblings = layer.filter((other) => other !== folder);
      const patterns = [webToProxy, intoWebEntry];
      if (above.length) patterns.push({ group: above.map((f) => `**/${f}/**`), message: `apps/web/src/${folder}/ may not import a folder above it (${above.join(', ')}): the layers go one way (WEB_LAYERS in eslint.config.js).` });
      if (siblings.length) patterns.push({ group: siblings.map((f) => `**/${f}/**`), message: `features of one layer never import each other (${siblings.join(', ')}): they meet in a layer above; what two of them need belongs a layer down (ui/, store/).` });
      return { files: [`apps/web/src/${folder}/**/*.{ts,tsx}`], ignores: ['**/*.test.*'], rules: { 'no-restricted-imports': ['error', { patterns }] } };
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
    rules: {
      'no-restricted-imports': ['error', { patterns: [webToProxy] }],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'apps/web calls its API through the one ApiClient (api/client.ts): its token, its ApiError.' }],
    },
  },
  { files: ['apps/web/src/api/**/*.ts'], rules: { 'no-restricted-globals': 'off' } },
  ...webLayerRules(),
);
