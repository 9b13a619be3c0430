/**
 * The web's layer table (WEB_LAYERS in eslint.config.js) and its one API client are rules the lint
 * refuses: each case writes an import (or a fetch) into a file inside apps/web/src and lints it with
 * the repository's own config. A wrong one is refused with the rule's message; a right one passes.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: repo });

/** The messages of `rule` for `code` linted as if it were the file `at`. */
async function refusals(at: string, code: string, rule = 'no-restricted-imports'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repo}apps/web/src/${at}` });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('apps/web layer table', () => {
  it('refuses a store importing a feature', async () => {
    const messages = await refusals('store/example.ts', "export { Timeline } from '../timeline/Timeline.js';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('apps/web/src/store/ may not import a folder above it');
  });

  it('refuses a feature importing another feature of its layer', async () => {
    const messages = await refusals('widget/example.ts', "export { ExportMenu } from '../export/ExportMenu.js';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('features of one layer never import each other');
  });

  it('refuses ui/ importing a view, and a view importing the shell', async () => {
    expect(await refusals('ui/example.tsx', "export { DetailPane } from '../detail/DetailPane.js';\n")).toEqual([expect.stringContaining('apps/web/src/ui/ may not import a folder above it')]);
    expect(await refusals('timeline/example.tsx', "export { TopbarActions } from '../app/TopbarActions.js';\n")).toEqual([expect.stringContaining('apps/web/src/timeline/ may not import a folder above it')]);
  });

  it('refuses a folder importing the entry', async () => {
    expect(await refusals('app/example.tsx', "export { App } from '../App.js';\n")).toEqual([expect.stringContaining('App.tsx and main.tsx are the entry')]);
  });

  it('passes imports down the table and within a folder', async () => {
    const code = [
      "export { ReplayHost } from '../replay/replay-host.js';",
      "export { StatusBadge } from '../ui/StatusBadge.js';",
      "export { useLive } from '../store/live-store.js';",
      "export { ApiClient } from '../api/client.js';",
      "export { Legend } from './Legend.js';",
      '',
    ].join('\n');
    expect(await refusals('timeline/example.tsx', code)).toEqual([]);
  });

  it('still refuses the proxy from any folder', async () => {
    expect(await refusals('lib/example.ts', "export { startTestMcpscope } from '../../../proxy/src/compose/app.js';\n")).toEqual([expect.stringContaining('apps/web and apps/proxy share code only through packages/')]);
  });

  it('refuses fetch outside api/: every call goes through the one ApiClient', async () => {
    const code = "export const info = () => fetch('/api/info');\n";
    expect(await refusals('replay/example.ts', code, 'no-restricted-globals')).toEqual([expect.stringContaining('through the one ApiClient')]);
    expect(await refusals('api/example.ts', code, 'no-restricted-globals')).toEqual([]);
  });
});
