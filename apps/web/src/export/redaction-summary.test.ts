import { describe, expect, it } from 'vitest';
import { parseRedactInput, summariseRedaction } from './redaction-summary.js';

const preview = (enabled: boolean, hits: { rule: string; count: number }[]) => ({ frames: 12, exchanges: 5, sessions: 1, redaction: { enabled, rules: ['credential headers'], hits } });

describe('the redaction summary shown before a download', () => {
  it('counts what will be replaced, rule by rule', () => {
    expect(summariseRedaction(preview(true, [{ rule: 'key api_key', count: 2 }, { rule: 'jwt', count: 1 }]))).toEqual({
      tone: 'safe',
      headline: '5 exchanges (12 frames); 3 values will be replaced by [redacted]:',
      details: ['2× key api_key', '1× jwt'],
    });
  });

  it('says so when nothing matches, and warns loudly when unredacted', () => {
    expect(summariseRedaction(preview(true, [])).headline).toBe('5 exchanges (12 frames); nothing in them matches a redaction rule.');
    expect(summariseRedaction(preview(false, []))).toMatchObject({ tone: 'danger', headline: expect.stringContaining('Unredacted') });
  });

  it('reads extra keys and paths separated by commas or lines', () => {
    expect(parseRedactInput(' card_number, $.params.arguments.pin \n\n ssn')).toEqual(['card_number', '$.params.arguments.pin', 'ssn']);
  });
});
