// --rule and --rules FILE: rules are checked when the command line is read, and a mistake is shown
// under the rule with a caret at its position.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/commands/cli-args.js';

describe('--rule and --rules', () => {
  it('collects repeated --rule and a rules file (comments and blank lines skipped)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcpscope-rules-')), 'rules.txt');
    writeFileSync(file, '# slow search\ntool:search => delay 90s\n\nmethod:tools/list => notify notifications/tools/list_changed once\n');
    const options = parseCli(['--target', 'http://localhost:3000/mcp', '--rule', 'tool:a => drop', '--rule', 'tool:b => http 429 retry-after=5', '--rules', file]);
    expect(options.rules).toEqual(['tool:a => drop', 'tool:b => http 429 retry-after=5', 'tool:search => delay 90s', 'method:tools/list => notify notifications/tools/list_changed once']);
  });

  it('refuses a bad rule, pointing at the mistake', () => {
    expect(() => parseCli(['--rule', 'tool:a => delay soon'])).toThrow('bad rule: "soon" is not a duration: write 500ms, 5s or 1.5s.\n  tool:a => delay soon\n                  ^^^^');
  });
});
