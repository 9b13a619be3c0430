// The fixture corpus: every accepted fixture validates clean, every rejection is rejected with a
// path, and the official schema.json gives the same verdict on each.
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../src/validate/index.js';
import { checkFor, fixtures } from '../support/fixtures.js';
import { officialMessageValid } from '../support/official-verdict.js';

const validator = new SchemaValidator();
const all = fixtures();
const label = (f: (typeof all)[number]) => `${f.rev} ${f.rejection ? 'rejection/' : ''}${f.type}/${f.name}`;

describe('fixture corpus', () => {
  it('covers every revision with accepted and rejected cases', () => {
    for (const rev of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']) {
      expect(all.filter((f) => f.rev === rev && !f.rejection).length).toBeGreaterThan(15);
      expect(all.filter((f) => f.rev === rev && f.rejection).length).toBeGreaterThan(10);
    }
  });

  it.each(all.map((f) => [label(f), f] as const))('%s', (_label, f) => {
    const check = checkFor(f.rev, f.type, f.value);
    const issues = validator.validateMessage(check);
    if (f.rejection) {
      expect(issues.length, 'should be rejected').toBeGreaterThan(0);
      expect(issues[0]!.path.startsWith('$')).toBe(true);
    } else {
      expect(issues).toEqual([]);
    }
    expect(officialMessageValid(check), 'the official schema disagrees with the fixture').toBe(!f.rejection);
  });
});
