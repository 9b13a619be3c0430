// Free text is searched in SQL (capture/text-sql.ts: SQLite's LIKE where it means what the matcher
// means, the matcher's own function elsewhere), and the window's scans read a range of frames at
// a time (capture/scan-sql.ts). Property: on random captures whose bodies mix ASCII of any case,
// LIKE's own `%`, `_` and `\`, a NUL, non-ASCII letters and the two characters JavaScript
// lower-cases to ASCII (U+0130, U+212A), with answers arriving late (after other calls, across
// the scan's ranges), batches and calls never answered, and random search words (parts of the
// bodies in another case, or anything from the same alphabet), both the per-row SQL and the
// window's scan keep exactly the exchanges the dashboard's matcher keeps, in capture order: for
// frames whose `like_decides` was set when they were stored, for frames stored before that column
// (NULL), and for a file of a schema without it (read in place by `mcpscope open`).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFilter, parseFilter, type ExchangeSummary, type FilterContext, type FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { ExchangeWindows } from '../src/capture/capture-window.js';
import { filterToSql } from '../src/capture/filter-sql.js';

const ALPHABET = ['a', 'B', 'k', 'K', 'i', 'I', '\u0130', '\u212a', '\u0000', '%', '_', '\\', 'é', 'É', 'Σ', 'ς', ' ', '7', '"'];
const word = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''));

interface CallPlan {
  text: string;
  tool: string;
  /** Calls later in the list to pass before the answer: an answer after the next range starts. */
  answerAfter: number;
  outcome: 'ok' | 'error' | 'pending';
  batch: boolean;
  /** A line that is not JSON, with the text as it is (JSON would escape a NUL). */
  junk: boolean;
}

const callPlan: fc.Arbitrary<CallPlan> = fc.record({
  text: word,
  tool: fc.constantFrom('get_weather', 'Kelvin', 'wrap_gift'),
  answerAfter: fc.constantFrom(0, 0, 1, 3, 8),
  outcome: fc.constantFrom('ok', 'ok', 'error', 'pending'),
  batch: fc.boolean(),
  junk: fc.boolean(),
});

/** Frames of the calls in one session, answers held back `answerAfter` calls. */
function framesOf(calls: CallPlan[]): FrameInput[] {
  const out: FrameInput[] = [];
  const held: { due: number; body: unknown }[] = [];
  const push = (direction: 'c2s' | 's2c', body: unknown) =>
    out.push({ ts: 1_000 + out.length, sessionKey: 's-1', direction, transport: 'http-json', kind: 'data', raw: typeof body === 'string' ? body : JSON.stringify(body), http: { method: 'POST', path: '/mcp', connectionId: `c${out.length}` } });
  calls.forEach((c, i) => {
    const id = i + 1;
    const request = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: c.tool, arguments: { note: c.text } } };
    push('c2s', c.batch ? [request, { jsonrpc: '2.0', method: 'notifications/message', params: { data: c.text.toUpperCase() } }] : request);
    if (c.junk) push('s2c', `junk ${c.text}`);
    if (c.outcome !== 'pending') {
      const answer = c.outcome === 'error' ? { jsonrpc: '2.0', id, error: { code: -32602, message: `bad ${c.text}` } } : { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: c.text }] } };
      held.push({ due: i + c.answerAfter, body: answer });
    }
    for (const h of held.filter((h) => h.due <= i)) push('s2c', h.body);
    held.splice(0, held.length, ...held.filter((h) => h.due > i));
  });
  for (const h of held) push('s2c', h.body);
  return out;
}

/** A search word: part of a body in another case, or any word of the alphabet. */
const needleOf = (calls: CallPlan[]) =>
  fc.oneof(
    fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.constantFrom('upper', 'lower', 'same')).map(([pick, a, b, how]) => {
      const text = calls.length === 0 ? 'a' : calls[pick % calls.length]!.text;
      const from = a % text.length;
      const part = text.slice(from, from + 1 + (b % (text.length - from)));
      return how === 'upper' ? part.toUpperCase() : how === 'lower' ? part.toLowerCase() : part;
    }),
    word,
    fc.constantFrom('kelvin', 'get_', 'bad', '%', '_'),
  );

const quoted = (v: string) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** Filters around a search word: alone, negated, with a field, with a second word. */
const filtersOf = (needle: string, other: string) => {
  const q = quoted(needle);
  return [q, `!${q}`, `${q} & status:ok`, `${q} | tool:wrap_gift`, `${q} & ${quoted(other)}`];
};

describe('free text in SQL', () => {
  it('per row and in the window\'s scan, keeps exactly what the matcher keeps, on random bodies and words', () => {
    fc.assert(
      fc.property(
        fc.array(callPlan, { maxLength: 30 }).chain((calls) => fc.tuple(fc.constant(calls), needleOf(calls), needleOf(calls), fc.integer({ min: 1, max: 9 }), fc.nat(3))),
        ([calls, needle, other, stepSpan, storedBefore]) => {
          const store = new CaptureStore(':memory:');
          try {
            const pipeline = new CapturePipeline(store);
            for (const f of framesOf(calls)) pipeline.record(f);
            pipeline.flush();
            // Frames stored before the column: every second one, every third or none.
            if (storedBefore > 1) store.db.exec(`UPDATE frames SET like_decides = NULL WHERE seq % ${storedBefore} = 0`);
            const all = store.exchanges(100_000).reverse();
            const session = store.sessions()[0];
            const windows = new ExchangeWindows(store, { sliceMs: Infinity, stepSpan });
            for (const text of filtersOf(needle, other)) {
              const parsed = parseFilter(text);
              if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
              const match = compileFilter(parsed.filter);
              const kept = all
                .filter((ex: ExchangeSummary) => {
                  const ctx: FilterContext = { bodyText: () => store.framesText(ex.frameSeqs), diagnosticCodes: store.diagnosticCodes(ex) };
                  if (session) ctx.session = session;
                  return match(ex, ctx);
                })
                .map((ex) => ex.id);
              for (const likeDecides of [true, false]) {
                const pushed = filterToSql(parsed.filter, { likeDecides })!;
                expect(pushed.exact, text).toBe(true);
                const inSql = (store.stmt(`SELECT id FROM exchanges WHERE ${pushed.sql} ORDER BY sort_key`).all(...pushed.params) as { id: string }[]).map((r) => r.id);
                expect(inSql, `per row, like_decides ${likeDecides ? 'read' : 'not read'}: ${text}`).toEqual(kept);
              }
              const answer = windows.window({ filter: parsed.filter, text }, { offset: 0 }, 100_000);
              expect(answer.summaries.map((s) => (JSON.parse(s) as ExchangeSummary).id), `scan: ${text}`).toEqual(kept);
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
