// Every example of the official 2026-07-28 corpus: our validator and the official schema agree.
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../src/validate/index.js';
import { officialExamples, officialValid } from '../support/official-schemas.js';

const validator = new SchemaValidator();
const examples = officialExamples();

describe('official 2026-07-28 examples', () => {
  it('has the corpus', () => expect(examples.length).toBeGreaterThan(100));
  it.each(examples)('%s/%s: same verdict as schema.json', (type, _file, value) => {
    const ours = validator.validateDefinition('2026-07-28', type, value);
    expect(ours, `no definition ${type}`).toBeDefined();
    expect(ours!.length === 0).toBe(officialValid('2026-07-28', type, value));
  });
});
