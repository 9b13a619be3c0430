/**
 * What one tool call costs the capture file, by part: the SQL a call's tick runs on the tick
 * writer's thread (two frame rows, the exchange row, written at the request and again at its
 * answer, two frame links, the door record, the session and conversation rows), timed as the
 * thread runs it (`applyTickOps` in one transaction per tick), and again with each part left out.
 * Each row's difference from the first is what that part costs: the numbers behind any decision
 * to store less per call (issue 18: on two cores, capture's whole cost per call must fit in what
 * the load generator and the upstream leave).
 *
 * The lists are made by the real code from generated traffic: the deriver derives each tick,
 * TickOps encodes it as the thread does, and the door records have the shape the tap records for
 * an MCP POST. Ticks hold 30 calls with each answer in the tick after its request, which is what
 * the tap hands the thread at 50 clients (about 6,000 calls a second, a tick every 5 ms, calls of
 * about 7 ms). Deriving and encoding are timed too (the thread's other work per call; here the
 * encoding also makes the JSON texts of HTTP layers and door records that the tap's thread sends).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { CaptureDeriver, type DoorRecord, type Frame } from '@mcpscope/protocol';
import { CaptureStore, OP, OP_VALUES, TICK_SQL, TemplateWriter, TickOps, applyTickOps, derive } from '@mcpscope/proxy/capture';
import { measured, type BenchOptions, type BenchRow } from './report.js';
import { medianSpread, tempDb } from './store-common.js';
import { printTable } from './stats.js';

const CALLS_PER_TICK = 30;
const TOOLS = ['suggest_gifts', 'wrap_gift', 'search_docs', 'get_weather'];

const requestHeaders = { 'content-type': 'application/json', host: '127.0.0.1:38899', accept: 'application/json, text/event-stream', 'user-agent': 'mcpscope-bench/1' };

/** Call `i`'s request and answer frames (seq set by the caller) and its door record, as the tap records an MCP POST. */
function call(i: number, ts: number): { request: Omit<Frame, 'seq'>; answer: Omit<Frame, 'seq'>; door: DoorRecord } {
  const sessionKey = 'client:mcpscope-bench/1';
  const request = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: TOOLS[i % TOOLS.length], arguments: { occasion: 'birthday', budget: 60 } } });
  const answer = JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: 'Personalised star map print, $55' }] } });
  const connectionId = `h${i % 50}`;
  const responseHeaders = { 'content-type': 'application/json', 'content-length': String(answer.length), date: new Date(ts).toUTCString(), connection: 'keep-alive', 'keep-alive': 'timeout=60' };
  const http = { method: 'POST', path: '/mcp', connectionId, requestId: i + 1 };
  return {
    request: { ts, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: request, http: { ...http, requestHeaders: { ...requestHeaders, 'content-length': String(request.length) } } },
    answer: { ts: ts + 7, sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', raw: answer, http: { ...http, status: 200, responseHeaders } },
    door: {
      id: i + 1, rev: i + 1, ts, method: 'POST', path: '/mcp', answer: 'upstream', end: 'complete',
      requestHeaders: { ...requestHeaders, 'content-length': String(request.length) }, responseHeaders,
      requestBytes: request.length, responseBytes: answer.length, peer: { address: '127.0.0.1', connection: i % 50, port: 40000 + (i % 50) },
      host: requestHeaders.host, userAgent: requestHeaders['user-agent'], mcp: true, sessionKey, frameCount: 2, status: 200, firstByteMs: 6.9, endMs: 7,
    },
  };
}

/**
 * Each tick's op list, derived and encoded by the real code: tick t has calls t·30… as requests and
 * the answers to tick t−1's. `plain` holds the same lists with frames' http, door records and
 * exchange summaries as their JSON (a TickOps without templates), not timed.
 */
export function ticks(calls: number): { lists: unknown[][]; plain: unknown[][]; deriveUs: number; encodeUs: number } {
  const made = Array.from({ length: calls }, (_, i) => call(i, 1_800_000_000_000 + i * 0.16));
  const input: { frames: Frame[]; doors: DoorRecord[]; newFrom: number }[] = [];
  let seq = 0;
  for (let first = 0; first <= calls; first += CALLS_PER_TICK) {
    const frames: Frame[] = [];
    const doors: DoorRecord[] = [];
    const newFrom = seq + 1;
    for (let i = first; i < Math.min(first + CALLS_PER_TICK, calls); i++) frames.push({ ...made[i]!.request, seq: ++seq });
    for (let i = Math.max(0, first - CALLS_PER_TICK); i < first; i++) {
      frames.push({ ...made[i]!.answer, seq: ++seq });
      doors.push(made[i]!.door); // written once, whole, at its end (tick-queue.ts)
    }
    input.push({ frames, doors, newFrom });
  }
  const deriver = new CaptureDeriver();
  let started = process.hrtime.bigint();
  const derived = input.map((t) => derive(deriver, t.frames));
  const deriveNs = process.hrtime.bigint() - started;
  // The templates a writer has seen (none yet: every one is accepted), as on a new capture file.
  const scratchFile = tempDb('write-cost-templates');
  const scratch = new CaptureStore(scratchFile);
  const templates = new TemplateWriter(scratch.db);
  const encode = (writer?: TemplateWriter) =>
    input.map((t, i) => {
      const ops = new TickOps(writer);
      ops.frames(t.frames);
      ops.door(t.doors);
      ops.derived(derived[i]!, t.newFrom, () => {});
      return ops.ops;
    });
  started = process.hrtime.bigint();
  // The texts the tap's thread sends with the frames and door records (worker-engine.ts) are made here.
  const lists = encode(templates);
  const encodeNs = process.hrtime.bigint() - started;
  scratch.close();
  rmSync(dirname(scratchFile), { recursive: true, force: true });
  return { lists, plain: encode(), deriveUs: Number(deriveNs) / 1000 / calls, encodeUs: Number(encodeNs) / 1000 / calls };
}

/** `ops` without the statements `drop` names (by opcode); `once` turns each exchange into one write, at its answer. */
function without(ops: unknown[], drop: ReadonlySet<number>, once = false): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < ops.length; ) {
    const op = ops[i] as number;
    const end = i + 1 + OP_VALUES[op]!;
    const pendingInsert = once && op === OP.exchange && ops[i + 8] === 'pending';
    if (!drop.has(op) && !pendingInsert) {
      const run = ops.slice(i, end);
      if (once && op === OP.exchangeChanged) run[0] = OP.exchange;
      out.push(...run);
    }
    i = end;
  }
  return out;
}

interface Variant {
  name: string;
  /** The lists to write, from the lists as encoded (`all`) and the same without templates (`plain`). */
  lists: (all: unknown[][], plain: unknown[][]) => unknown[][];
  /** Indexes dropped from the schema before writing. */
  dropIndexes?: string[];
}

function variants(): Variant[] {
  const keep = (all: unknown[][]) => all;
  const drop = (...ops: number[]) => (all: unknown[][]) => all.map((l) => without(l, new Set(ops)));
  return [
    { name: 'everything (as the tap writes a call today)', lists: keep },
    { name: "frames' http, door records and exchange summaries as their JSON (no templates)", lists: (_all, plain) => plain },
    { name: 'without the door record', lists: drop(OP.door) },
    { name: 'each exchange written once (at its answer)', lists: (all) => all.map((l) => without(l, new Set(), true)) },
    { name: 'without the frame links', lists: drop(OP.link) },
    { name: 'without the session and conversation rows', lists: drop(OP.session, OP.conversation) },
    { name: 'without 4 exchange filter indexes (status, method, target, session)', lists: keep, dropIndexes: ['exchanges_by_status', 'exchanges_by_method', 'exchanges_by_target', 'exchanges_by_session'] },
    { name: 'without the frames-by-session index', lists: keep, dropIndexes: ['frames_by_session'] },
    { name: 'the frame rows alone (the evidence, no index)', lists: drop(OP.door, OP.exchange, OP.exchangeChanged, OP.link, OP.session, OP.conversation, OP.diagnostic), dropIndexes: ['frames_by_session'] },
  ];
}

/** µs per call to write `lists` into a new capture file, one transaction per tick, as the thread does. */
function writeCost(lists: unknown[][], calls: number, dropIndexes: string[] = []): number {
  const store = new CaptureStore(tempDb('write-cost'));
  const db = store.db;
  for (const name of dropIndexes) db.exec(`DROP INDEX ${name}`);
  const statements = TICK_SQL.map((sql) => (sql === '' ? undefined! : db.prepare(sql)));
  const transaction = db.transaction((ops: unknown[]) => applyTickOps(statements, ops));
  const started = process.hrtime.bigint();
  for (const ops of lists) transaction(ops);
  const us = Number(process.hrtime.bigint() - started) / 1000 / calls;
  store.close();
  return us;
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const calls = options.smoke ? 600 : 30_000;
  const rounds = options.smoke ? 1 : 5;
  ticks(Math.min(calls, 3000)); // compiles the deriver's validators and warms the code, as the thread does before it derives
  const made = ticks(calls);
  const derives: number[] = [made.deriveUs];
  const encodes: number[] = [made.encodeUs];
  for (let r = 1; r < rounds; r++) {
    const again = ticks(calls);
    derives.push(again.deriveUs);
    encodes.push(again.encodeUs);
  }
  const all = variants();
  const results = all.map(() => [] as number[]);
  writeCost(made.lists, calls); // a first file, so no variant pays for warming SQLite's code and the page cache
  // Rounds interleave the variants, so a slow minute of the machine falls on all of them alike.
  for (let r = 0; r < rounds; r++) {
    all.forEach((v, i) => results[i]!.push(writeCost(v.lists(made.lists, made.plain), calls, v.dropIndexes)));
  }
  const medians = results.map((r) => medianSpread(r));
  const base = medians[0]!.median;
  const d = medianSpread(derives);
  const e = medianSpread(encodes);
  printTable(`Capture file write cost, ${calls} calls × ${rounds} rounds, ${CALLS_PER_TICK} calls a tick (µs per call; median (min–max))`, ['what is written', 'µs per call', 'saves'], [
    ...all.map((v, i) => [v.name, `${medians[i]!.median.toFixed(1)} (${medians[i]!.min.toFixed(1)}–${medians[i]!.max.toFixed(1)})`, i === 0 ? '' : `${(base - medians[i]!.median).toFixed(1)}`]),
    ['deriving the call (no SQL)', `${d.median.toFixed(1)} (${d.min.toFixed(1)}–${d.max.toFixed(1)})`, ''],
    ['encoding it (the list and its JSON texts)', `${e.median.toFixed(1)} (${e.min.toFixed(1)}–${e.max.toFixed(1)})`, ''],
  ]);
  const floor = medians[medians.length - 1]!.median;
  return [
    measured({ bench: 'store write cost', metric: 'µs per call, SQL of a call (frames, exchange ×2, links, door, session, conversation)', unit: 'µs', baseline: { name: 'frame rows alone', value: floor }, ratioAs: 'x' }, results[0]!),
    measured({ bench: 'store write cost', metric: 'µs per call, deriving', unit: 'µs' }, derives),
    measured({ bench: 'store write cost', metric: 'µs per call, encoding (the op list and its JSON texts)', unit: 'µs' }, encodes),
  ];
}
