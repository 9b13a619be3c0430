// The dashboard's list read by position (capture/capture-window.ts) must be exactly a slice of
// "every exchange in capture order kept by the matcher", at any position, for any filter of the
// language, whether SQL counts it or a scan collects it, and while a scan is still counting.
// Live rows and changed rows (a pending call answered) move the count, never the rows before them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseFilter, type ExchangeSummary, type FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { ABANDON_MS, ExchangeWindows, type WindowAt, type WindowQuery } from '../src/capture/capture-window.js';
import { ATOMS, conversationAtoms, expectedIds, filterText, mixedTraffic } from './support/mixed-capture.js';

let store: CaptureStore;
let windows: ExchangeWindows;

beforeAll(() => {
  store = new CaptureStore(':memory:');
  const pipeline = new CapturePipeline(store);
  for (const f of mixedTraffic()) pipeline.record(f);
  pipeline.flush();
  // Scans finish within the request that starts them.
  windows = new ExchangeWindows(store, { sliceMs: Infinity });
  conversationAtoms.splice(0, conversationAtoms.length, ...store.conversations().map((c) => `conversation:${c.key}`));
});
afterAll(() => store.close());

function queryOf(text: string, since?: number): WindowQuery {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
  return { filter: parsed.filter, text, ...(since !== undefined ? { since } : {}) };
}

/** The oracle, oldest first. */
const listOf = (s: CaptureStore, text: string) => expectedIds(s, text).reverse();
const ids = (summaries: readonly string[]) => summaries.map((t) => (JSON.parse(t) as ExchangeSummary).id);

describe('the exchange window', () => {
  it('every atom: the whole list and its count are what the matcher keeps', () => {
    for (const text of ['', ...ATOMS, ...conversationAtoms]) {
      const want = listOf(store, text);
      const answer = windows.window(queryOf(text), { offset: 0 }, 10_000);
      expect(ids(answer.summaries), text).toEqual(want);
      expect(answer, text).toMatchObject({ total: want.length, complete: true, offset: 0 });
    }
  });

  it('any filter, any position: the window is that slice of the list', () => {
    fc.assert(
      fc.property(filterText, fc.nat(), fc.integer({ min: 1, max: 12 }), fc.constantFrom('offset', 'end', 'around'), fc.nat(), (text, at, limit, how, pick) => {
        const want = listOf(store, text);
        const all = store.exchanges(100_000).map((e) => e.id);
        const where: WindowAt = how === 'offset' ? { offset: at % (want.length + 3) } : how === 'end' ? { end: true } : { around: all[pick % all.length]! };
        const answer = windows.window(queryOf(text), where, limit);
        expect(answer.total).toBe(want.length);
        expect(ids(answer.summaries)).toEqual(want.slice(answer.offset, answer.offset + limit));
        if ('offset' in where) expect(answer.offset).toBe(Math.min(where.offset, want.length));
        if ('end' in where) expect(answer.offset).toBe(Math.max(0, want.length - limit));
        if ('around' in where) {
          expect(answer.position).toBe(want.indexOf(where.around));
          if (answer.position! >= 0) expect(ids(answer.summaries)).toContain(where.around);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a counted filter at its start, middle and end: the slice of the list, whichever end it is read from', () => {
    const all = listOf(store, '');
    for (const since of [undefined, Number(all[Math.floor(all.length / 3)])]) {
      for (const text of ['', 'status:err', 'status:ok', 'method:tools/call', '!status:err', 'tool:wrap* | status:err']) {
        const want = listOf(store, text).filter((id) => since === undefined || Number(id) >= since);
        for (const limit of [1, 3, 10]) {
          for (const offset of [0, 1, Math.floor(want.length / 2) - 1, Math.floor(want.length / 2), want.length - limit - 1, want.length - limit, want.length]) {
            const at = Math.max(0, offset);
            const answer = windows.window(queryOf(text, since), { offset: at }, limit);
            expect(ids(answer.summaries), `${text} @${at}+${limit}`).toEqual(want.slice(Math.min(at, want.length), at + limit));
            expect(answer.total).toBe(want.length);
          }
          const end = windows.window(queryOf(text, since), { end: true }, limit);
          expect(ids(end.summaries), `${text} end+${limit}`).toEqual(want.slice(Math.max(0, want.length - limit)));
        }
      }
    }
  });

  it('from a sort key on ("Clear"): only the rows at or after it, counted', () => {
    const all = listOf(store, '');
    const since = Number(all[Math.floor(all.length / 2)]);
    for (const text of ['', 'status:err', 'bow', 'client:alpha']) {
      const want = listOf(store, text).filter((id) => Number(id) >= since);
      const answer = windows.window(queryOf(text, since), { offset: 0 }, 10_000);
      expect(ids(answer.summaries), text).toEqual(want);
      expect(answer.total, text).toBe(want.length);
    }
  });

  it('a scan that is still counting answers from what it found, and those rows never move', () => {
    const pending: (() => void)[] = [];
    // No time at all and one seq per range: every request and every slice does the least it can.
    const hurried = new ExchangeWindows(store, { sliceMs: 0, stepSpan: 1, schedule: (run) => void pending.push(run) });
    let unfinished = 0;
    fc.assert(
      fc.property(fc.constantFrom('bow', '"business failure"', 'client:beta', 'diag:invalid-message', 'dir:s2c', 'size>300 | bow', 'id:6'), fc.nat(), fc.integer({ min: 1, max: 6 }), (text, at, limit) => {
        const want = listOf(store, text);
        let answers = 0;
        for (;;) {
          const answer = hurried.window(queryOf(text), { offset: at % (want.length + 1) }, limit);
          answers++;
          expect(answer.total).toBeLessThanOrEqual(want.length);
          expect(ids(answer.summaries)).toEqual(want.slice(answer.offset, answer.offset + answer.summaries.length));
          if (answer.complete) {
            expect(answer.total).toBe(want.length);
            break;
          }
          unfinished++;
          // The scan goes on between requests by itself.
          pending.splice(0).forEach((run) => run());
        }
        return answers > 0;
      }),
      { numRuns: 40 },
    );
    expect(unfinished).toBeGreaterThan(0);
  });
});

describe('scans nobody asks about', () => {
  /** Windows whose scans do the least they can per slice, on a clock and a queue the test moves. */
  function stepped() {
    const clock = { ms: 0 };
    const pending: (() => void)[] = [];
    const w = new ExchangeWindows(store, { sliceMs: 0, stepSpan: 1, schedule: (run) => void pending.push(run), now: () => clock.ms });
    const runPending = () => pending.splice(0).forEach((run) => run());
    return { w, clock, pending, runPending };
  }

  it('a filter cleared while its scan counts: the scan stops taking slices and its rows are let go', () => {
    const { w, clock, pending, runPending } = stepped();
    let answer = w.window(queryOf('bow'), { offset: 0 }, 5);
    // The dashboard asks again while the list counts, until two rows are found.
    while (answer.total < 2) {
      expect(answer.complete, 'the scan found two rows before it ended').toBe(false);
      runPending();
      clock.ms += 200;
      answer = w.window(queryOf('bow'), { offset: 0 }, 5);
    }
    expect(answer.complete).toBe(false);
    const found = answer.total;
    // The filter is cleared: nobody asks about "bow" again.
    w.window(queryOf(''), { end: true }, 5);
    clock.ms += ABANDON_MS + 1;
    runPending();
    expect(pending).toHaveLength(0);
    // Asked again, it starts over: the rows it had found were not kept.
    expect(w.window(queryOf('bow'), { offset: 0 }, 5).total).toBeLessThan(found);
  });

  it('two dashboards with different filters, each asking in turn: both scans go on to the end', () => {
    const { w, clock, runPending } = stepped();
    const texts = ['bow', 'client:beta'];
    const done = new Set<string>();
    for (let turn = 0; done.size < texts.length; turn++) {
      expect(turn, 'turns until both lists are complete').toBeLessThan(100_000);
      const text = texts[turn % texts.length]!;
      const answer = w.window(queryOf(text), { end: true }, 5);
      const want = listOf(store, text);
      expect(ids(answer.summaries)).toEqual(want.slice(answer.offset, answer.offset + Math.min(5, answer.total - answer.offset)));
      if (answer.complete) {
        expect(answer.total).toBe(want.length);
        done.add(text);
      }
      runPending();
      clock.ms += 500;
    }
  });
});

describe('the window of a capture that grows', () => {
  let live: CaptureStore;
  let pipeline: CapturePipeline;
  let seqTs = 1_000;
  const frame = (direction: 'c2s' | 's2c', body: unknown, sessionKey = 's-live'): FrameInput => ({
    ts: (seqTs += 5),
    sessionKey,
    direction,
    transport: 'http-json',
    kind: 'data',
    raw: JSON.stringify(body),
    http: { method: 'POST', path: '/mcp' },
  });
  const call = (id: number, note: string) => frame('c2s', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wrap_gift', arguments: { note } } });
  const answer = (id: number, text: string) => frame('s2c', { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
  const failure = (id: number) => frame('s2c', { jsonrpc: '2.0', id, error: { code: -32602, message: 'nope' } });
  const record = (...frames: FrameInput[]) => {
    for (const f of frames) pipeline.record(f);
    pipeline.flush();
  };

  beforeAll(() => {
    live = new CaptureStore(':memory:');
    pipeline = new CapturePipeline(live);
  });
  afterAll(() => live.close());

  it('new rows and answered rows move the count; the window stays the list\'s slice', () => {
    const w = new ExchangeWindows(live, { sliceMs: Infinity });
    record(call(1, 'plain'), answer(1, 'done'), call(2, 'plain'), call(3, 'plain'), answer(3, 'ribbon here'));
    const check = (text: string) => {
      const want = listOf(live, text);
      const got = w.window(queryOf(text), { offset: 0 }, 100);
      expect(ids(got.summaries), text).toEqual(want);
      expect(got.total, text).toBe(want.length);
      return want.length;
    };
    expect(check('ribbon')).toBe(1);
    expect(check('status:err')).toBe(0);
    expect(check('status:pending')).toBe(1);
    // Call 2 (already scanned, pending) is answered with the word; call 4 fails; call 5 is new.
    record(answer(2, 'a Ribbon too'), call(4, 'plain'), failure(4), call(5, 'ribbon'));
    expect(check('ribbon')).toBe(3);
    expect(check('status:err')).toBe(1);
    expect(check('status:pending')).toBe(1);
    expect(check('')).toBe(5);
  });

  it('at a new head, a list of fields a row never changes adds the rows stored since; a long changing list catches up once recounted', () => {
    const clock = { ms: 0 };
    // Every list counts as long: what a capture of hundreds of thousands of rows does.
    const w = new ExchangeWindows(live, { sliceMs: Infinity, wholeCountRows: 0, now: () => clock.ms });
    const total = (text: string) => w.window(queryOf(text), { end: true }, 5).total;
    const truth = (text: string) => listOf(live, text).length;
    const settled = ['', 'method:tools/call', 'tool:wrap_*', '!kind:notification', 'session=s-live'];
    for (const text of [...settled, 'status:pending']) expect(total(text), text).toBe(truth(text));
    const pendingBefore = truth('status:pending');
    for (let round = 0; round < 3; round++) {
      const id = 100 + round;
      record(call(id, 'plain'));
      record(answer(id, 'done'), call(id + 10, 'plain'));
      for (const text of settled) expect(total(text), `${text} round ${round}`).toBe(truth(text));
    }
    // Calls 100–102 were answered after status:pending was counted: it added the rows stored
    // since (three pending calls, 110–112) but not yet the answers, until its recount is due.
    expect(truth('status:pending')).toBe(pendingBefore + 3);
    expect(total('status:pending')).toBe(pendingBefore + 3);
    record(answer(110, 'done'));
    expect(total('status:pending')).toBe(pendingBefore + 3);
    clock.ms += 60_000;
    expect(total('status:pending')).toBe(truth('status:pending'));
  });

  it('a session that arrives after a client: or rev: window was read joins that window', () => {
    const w = new ExchangeWindows(live, { sliceMs: Infinity });
    const count = (text: string) => {
      const want = listOf(live, text);
      const got = w.window(queryOf(text), { end: true }, 100);
      expect(ids(got.summaries), text).toEqual(want);
      expect(got.total, text).toBe(want.length);
      return got.total;
    };
    expect(count('client:zeta')).toBe(0);
    expect(count('rev:2025-11-*')).toBe(0);
    expect(count('!client:zeta')).toBe(listOf(live, '').length);
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'Zeta Desk', version: '1' } } };
    const ready = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'srv', version: '1' } } };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wrap_gift', arguments: {} } };
    record(frame('c2s', init, 's-zeta'), frame('s2c', ready, 's-zeta'), frame('c2s', call, 's-zeta'));
    expect(count('client:zeta')).toBe(2);
    expect(count('rev:2025-11-*')).toBe(2);
    expect(count('!client:zeta')).toBe(listOf(live, '').length - 2);
  });
});
