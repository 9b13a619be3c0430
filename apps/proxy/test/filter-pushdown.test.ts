// Server-side filtering must answer exactly what the dashboard's matcher would: the SQL pushdown
// is only allowed to narrow. Property: for any filter built from the language's operators, a page
// from the store equals "every exchange, newest first, kept by matchesExchange", and paging it in
// small pages gives the same list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseFilter } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { CaptureQuery } from '../src/capture/capture-query.js';
import { ATOMS, DOOR_ATOMS, conversationAtoms, expectedIds, filterText, mixedTraffic } from './support/mixed-capture.js';

let store: CaptureStore;
let query: CaptureQuery;
/** Tiny windows and no time at all: every page stops early, and paging must still add up. */
let hurried: CaptureQuery;

beforeAll(() => {
  store = new CaptureStore(':memory:');
  const pipeline = new CapturePipeline(store);
  for (const f of mixedTraffic()) pipeline.record(f);
  pipeline.flush();
  query = new CaptureQuery(store);
  hurried = new CaptureQuery(store, { firstWindow: 3, scanTimeMs: 0 });
  conversationAtoms.splice(0, conversationAtoms.length, ...store.conversations().map((c) => `conversation:${c.key}`));
});
afterAll(() => store.close());

function expected(text: string): string[] {
  return expectedIds(store, text);
}

function served(text: string, pageSize: number, q = query): string[] {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
  const ids: string[] = [];
  let before: number | undefined;
  for (let i = 0; i < 10_000; i++) {
    const page = q.exchanges(parsed.filter, pageSize, before);
    ids.push(...page.exchanges.map((e) => e.id));
    if (page.nextBefore === undefined) return ids;
    before = page.nextBefore;
  }
  throw new Error('paging did not end');
}

describe('server-side filters', () => {
  it('every atom alone matches what the matcher keeps (and the capture exercises it)', () => {
    let nonEmpty = 0;
    for (const atom of ATOMS) {
      const want = expected(atom);
      if (want.length > 0) nonEmpty++;
      expect(served(atom, 100_000), atom).toEqual(want);
    }
    // Only method:Tools/call (methods are case-sensitive), conversation:c999 and session=s- (no
    // key is exactly "s-", though two start with it) match nothing.
    expect(nonEmpty).toBe(ATOMS.length - 3);
    // Conversations: the three clients' sessions, and the session-less client's two host conversations.
    expect(conversationAtoms.length).toBeGreaterThanOrEqual(4);
    for (const atom of conversationAtoms) {
      const want = expected(atom);
      expect(want.length, atom).toBeGreaterThan(0);
      expect(served(atom, 100_000), atom).toEqual(want);
    }
    const rows = (text: string) => new Set(expected(text));
    const x = store.conversations().find((c) => c.hostId === 'conv-x')!;
    const y = store.conversations().find((c) => c.hostId === 'conv-y')!;
    expect([...rows(`conversation:${x.key}`)].some((id) => rows(`conversation:${y.key}`).has(id))).toBe(false);
    for (const atom of DOOR_ATOMS) {
      expect(expected(atom), atom).toEqual([]);
      expect(served(atom, 100_000), atom).toEqual([]);
    }
  });

  it('status:err finds a result a host rejects (structuredContent breaking the outputSchema), in SQL as in the matcher', () => {
    const typed = store.exchanges(100_000).filter((e) => e.target === 'typed_weather').sort((a, b) => a.startTs - b.startTs);
    expect(typed.map((e) => [e.status, e.brokeHostRules])).toEqual([['ok', 'structured-content-invalid'], ['ok', undefined]]);
    const failed = served('status:err', 7);
    expect(failed).toContain(typed[0]!.id);
    expect(failed).not.toContain(typed[1]!.id);
    expect(failed).toEqual(expected('status:err'));
  });

  it('any combination gives the matcher\'s answer, in one page or many', () => {
    fc.assert(
      fc.property(filterText, fc.integer({ min: 1, max: 7 }), (text, pageSize) => {
        const want = expected(text);
        expect(served(text, 100_000)).toEqual(want);
        expect(served(text, pageSize)).toEqual(want);
        expect(served(text, pageSize, hurried)).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('a filtered frame page holds exactly the frames of matching exchanges, in capture order', () => {
    fc.assert(
      fc.property(filterText, (text) => {
        const ids = new Set(expected(text));
        const want = store
          .exchanges(100_000)
          .filter((e) => ids.has(e.id))
          .flatMap((e) => e.frameSeqs);
        const parsed = parseFilter(text);
        const page = query.frames(parsed.ok ? parsed.filter : null, 0, 5000);
        const seqs = [...new Set(want)].sort((a, b) => a - b);
        expect(page.frames.map((f) => f.seq)).toEqual(seqs);
        // Paged in small hurried pages, following nextAfter, the same frames come out.
        const paged: number[] = [];
        let after = 0;
        for (let i = 0; i < 10_000; i++) {
          const p = hurried.frames(parsed.ok ? parsed.filter : null, after, 4);
          paged.push(...p.frames.map((f) => f.seq));
          if (p.nextAfter === undefined) break;
          after = p.nextAfter;
        }
        expect(paged).toEqual(seqs);
      }),
      { numRuns: 60 },
    );
  });
});
