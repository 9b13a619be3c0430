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
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [webToProxy] }] },
  },
);
