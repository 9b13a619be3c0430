// A bounded random-traffic soak: several official SDK clients make a few thousand mixed calls
// through the tap to the official reference server (tools with and without progress, validation
// failures, unknown tools, lists, prompts, pings), several in flight per client. Afterwards the
// capture must match what the clients saw: the same calls with the same outcomes per session, the
// same answers for every uniquely tagged call, and exactly as many server messages recorded as the
// clients received.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExchangeStatus, FrameView } from '@mcpscope/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { startEverything } from '../support/everything.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { eventually, exchanges, framesAfter } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('90-soak', 'Soak');
const CLIENTS = 6;
const IN_FLIGHT = 10;
// 1,000 keeps the gate's time modest (server-everything answers ~50 calls/s on a busy 2-core box);
// MCPSCOPE_SOAK_CALLS=5000 runs the longer soak.
const CALLS = Number(process.env.MCPSCOPE_SOAK_CALLS ?? 1000);
const SEED = 424242;

const proxy = proxiedUpstream(() => startEverything('streamableHttp'));

type Op = 'echo' | 'sum' | 'progress' | 'bad-args' | 'unknown-tool' | 'list-tools' | 'ping' | 'prompt';
const OPS = fc.constantFrom<Op>('echo', 'echo', 'sum', 'sum', 'progress', 'bad-args', 'unknown-tool', 'list-tools', 'ping', 'prompt');

interface Seen {
  session: string;
  method: string;
  status: ExchangeStatus;
  /** A string unique to this call, found in its request frame, and the answer the client got. */
  tag?: string;
  answer?: unknown;
  /** What the client's error said, when the call failed. */
  error?: string;
}

/** A JSON-RPC error answer is a protocol error; a call that failed on the way (the SDK's -32000
 * connection closed / -32001 timeout, or a network error) is a transport error. */
function failure(err: unknown): { status: ExchangeStatus; code?: number } {
  const answered = err instanceof McpError && err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout;
  return answered ? { status: 'protocol_error', code: err.code } : { status: 'transport_error' };
}

async function plain(method: string, run: () => Promise<unknown>): Promise<Omit<Seen, 'session'>> {
  try {
    await run();
    return { method, status: 'ok' };
  } catch (err) {
    return { method, status: failure(err).status, error: String(err) };
  }
}

async function perform(client: Client, op: Op, n: number): Promise<Omit<Seen, 'session'>> {
  const tag = `soak-${n}`;
  const call = async (name: string, args: Record<string, unknown>, onprogress?: () => void) => {
    try {
      const r = await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined);
      return { method: 'tools/call', status: (r.isError ? 'business_error' : 'ok') as ExchangeStatus, tag, answer: r.content };
    } catch (err) {
      const { status, code } = failure(err);
      return { method: 'tools/call', status, tag, answer: code === undefined ? undefined : { code }, error: String(err) };
    }
  };
  switch (op) {
    case 'echo':
      return call('echo', { message: tag });
    case 'sum':
      return call('get-sum', { a: n, b: 0.5, tag });
    case 'progress':
      return call('trigger-long-running-operation', { duration: 0.03, steps: 3, tag }, () => undefined);
    case 'bad-args':
      return call('echo', { message: n, tag });
    case 'unknown-tool':
      return call(`no-such-tool-${tag}`, {});
    case 'list-tools':
      return plain('tools/list', () => client.listTools());
    case 'ping':
      return plain('ping', () => client.ping());
    case 'prompt':
      return plain('prompts/get', () => client.getPrompt({ name: 'simple-prompt' }));
  }
}

describe('soak', () => {
  it(`${CALLS} mixed calls through the tap are captured exactly as the clients saw them`, async () => {
    const row = report.row(`${CALLS} random mixed calls (seed ${SEED}) from ${CLIENTS} SDK clients, ${IN_FLIGHT} in flight each, to server-everything through the tap`, 'per session the captured (method, status) multiset equals the clients\'; every tagged call\'s captured answer equals what its client got; server messages recorded = server messages delivered');
    const ops = fc.sample(fc.array(OPS, { minLength: CALLS, maxLength: CALLS }), { numRuns: 1, seed: SEED })[0]!;
    const seen: Seen[] = [];
    let delivered = 0;
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const client = new Client({ name: `soak-${c}`, version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl));
        await client.connect(transport);
        delivered += 1; // the initialize answer, delivered before we could count
        const onmessage = transport.onmessage!;
        transport.onmessage = (message) => {
          delivered += 1;
          onmessage(message);
        };
        return { client, session: transport.sessionId! };
      }),
    );
    let next = 0;
    await Promise.all(
      clients.flatMap(({ client, session }) =>
        Array.from({ length: IN_FLIGHT }, async () => {
          for (let n = next++; n < ops.length; n = next++) seen.push({ session, ...(await perform(client, ops[n]!, n)) });
        }),
      ),
    );

    const captured = await eventually(async () => {
      const all = (await exchanges(proxy.app)).filter((e) => e.requester === 'client' && e.method !== 'initialize' && e.kind === 'request');
      return all.length >= CALLS && all.every((e) => e.status !== 'pending') ? all : undefined;
    }, 'every call to be captured', 30_000);
    const frames = await framesAfter(proxy.app);
    await Promise.all(clients.map(({ client }) => client.close()));

    const key = (s: { session: string; method?: string; status: string }) => `${s.session} ${s.method} ${s.status}`;
    const tally = (keys: string[]) => [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())].sort();
    const bySeq = new Map<number, FrameView>(frames.map((f) => [f.seq, f]));
    const answersByTag = new Map<string, unknown>();
    for (const e of captured) {
      const request = bySeq.get(e.requestSeq ?? -1)?.raw ?? '';
      const tag = /soak-\d+(?=["\\])/.exec(request)?.[0];
      const response = JSON.parse(bySeq.get(e.responseSeq ?? -1)?.raw ?? 'null') as { result?: { content?: unknown }; error?: { code?: number } } | null;
      if (tag) answersByTag.set(tag, response?.error ? { code: response.error.code } : response?.result?.content);
    }
    const tagged = seen.filter((s) => s.tag && s.status !== 'transport_error');
    const mismatched = tagged.filter((s) => JSON.stringify(answersByTag.get(s.tag!)) !== JSON.stringify(s.answer));
    const recordedS2c = frames.filter((f) => f.kind === 'data' && f.direction === 's2c').length;
    const statusCounts = tally(seen.map((s) => s.status)).map(([k, v]) => `${k} ${v}`).join(', ');
    const failedOnTheWay = seen.filter((s) => s.status === 'transport_error');
    row.observed(`${seen.length} calls (${statusCounts}${failedOnTheWay.length ? `; first transport failure: ${failedOnTheWay[0]!.error?.slice(0, 80)}` : ''}); ${captured.length} exchanges captured; ${mismatched.length} of ${tagged.length} tagged answers differ; ${delivered} server messages delivered, ${recordedS2c} recorded`);
    expect(captured).toHaveLength(CALLS);
    expect(tally(captured.map((e) => key({ session: e.sessionKey, method: e.method, status: e.status })))).toEqual(tally(seen.map(key)));
    expect(mismatched.map((s) => s.tag)).toEqual([]);
    expect(recordedS2c).toBe(delivered);
  }, 120_000);
});
