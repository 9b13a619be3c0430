// Differential test: our validator (SDK zod schemas + mcpscope's rules) and the official
// schema.json of each revision give the same verdict on every fixture, every official example
// and thousands of systematic mutations of them.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/index.js';
import { SchemaValidator } from '../../src/validate/index.js';
import { checkFor, fixtures } from '../support/fixtures.js';
import { mutations } from '../support/mutate.js';
import { officialExamples, officialValid } from '../support/official-schemas.js';
import { officialMessageValid } from '../support/official-verdict.js';

const validator = new SchemaValidator();

describe('differential: our validator vs the official schema.json', () => {
  it('agrees on every mutation of every fixture message, in every revision', { timeout: 120_000 }, () => {
    let compared = 0;
    const disagreements: string[] = [];
    for (const f of fixtures()) {
      for (const [what, mutated] of mutations(f.value)) {
        if (typeof mutated !== 'object' || mutated === null || Array.isArray(mutated)) continue;
        const check = checkFor(f.rev, f.type, mutated as JsonObject);
        const ours = validator.validateMessage(check).length === 0;
        const theirs = officialMessageValid(check);
        compared++;
        if (ours !== theirs) disagreements.push(`${f.rev} ${f.type}/${f.name}: ${what} → ours ${ours}, official ${theirs}`);
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    if (process.env.DIFF_DUMP) console.log('DUMP\n' + disagreements.join('\n'));
    expect(disagreements.slice(0, 30)).toEqual([]);
  });

  it('agrees on every mutation of every official 2026-07-28 example', { timeout: 120_000 }, () => {
    let compared = 0;
    const disagreements: string[] = [];
    for (const [type, file, value] of officialExamples()) {
      for (const [what, mutated] of mutations(value as never)) {
        const ours = validator.validateDefinition('2026-07-28', type, mutated)!.length === 0;
        const theirs = officialValid('2026-07-28', type, mutated);
        compared++;
        if (ours !== theirs) disagreements.push(`${type}/${file}: ${what} → ours ${ours}, official ${theirs}`);
      }
    }
    expect(compared).toBeGreaterThan(5_000);
    if (process.env.DIFF_DUMP) console.log('DUMP\n' + disagreements.join('\n'));
    expect(disagreements.slice(0, 30)).toEqual([]);
  });
});
