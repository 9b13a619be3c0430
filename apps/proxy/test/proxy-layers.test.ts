/**
 * The proxy's layer table (PROXY_LAYERS in eslint.config.js) is a rule the lint refuses: each case
 * writes an import into a file inside apps/proxy/src and lints it with the repository's own
 * config. A wrong one is refused with the rule's message; a right one passes.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: repo });

async function refusals(at: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repo}apps/proxy/src/${at}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('apps/proxy layer table', () => {
  it('refuses a lower layer importing a higher one', async () => {
    expect(await refusals('capture/example.ts', "export { startMcpscope } from '../compose/start-mcpscope.js';\n")).toEqual([expect.stringContaining('apps/proxy/src/capture/ may not import a folder above it')]);
    expect(await refusals('core/example.ts', "export { REDACTED } from '../redaction/redact.js';\n")).toEqual([expect.stringContaining('apps/proxy/src/core/ may not import a folder above it')]);
  });

  it('refuses a feature importing another feature', async () => {
    expect(await refusals('replay/example.ts', "export { WidgetService } from '../widget-host/widget-service.js';\n")).toEqual([expect.stringContaining('features never import each other')]);
  });

  it('refuses the web from any folder', async () => {
    expect(await refusals('core/example.ts', "export { App } from '../../../web/src/App.js';\n")).toEqual(expect.arrayContaining([expect.stringContaining('apps/proxy and apps/web share code only through packages/')]));
  });

  it('passes imports down the table', async () => {
    const code = ["export { CaptureStore } from '../capture/capture-store.js';", "export { InspectorError } from '../core/errors.js';", "export { REDACTED } from '../redaction/redact.js';", ''].join('\n');
    expect(await refusals('replay/example.ts', code)).toEqual([]);
  });
});
