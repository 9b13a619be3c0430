/**
 * The load generator: keep-alive HTTP from this process with undici, one connection per
 * simulated client, so every path is measured with the same client.
 */
import { Agent, request } from 'undici';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } } });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'mcpscope-bench/1' };

export function newAgent(connections: number): Agent {
  return new Agent({ connections, pipelining: 1, keepAliveTimeout: 60_000 });
}

/** Opens an MCP session (initialize, initialized) and returns the headers its calls carry. */
export async function openSession(agent: Agent, url: string): Promise<Record<string, string>> {
  const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  const res = await request(url, { method: 'POST', headers: HEADERS, body: init, dispatcher: agent });
  await res.body.text();
  const headers = { ...HEADERS, 'mcp-session-id': String(res.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  await (await request(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}', dispatcher: agent })).body.text();
  return headers;
}

/** One tools/call round trip; returns milliseconds. */
export async function call(agent: Agent, url: string, headers: Record<string, string> = HEADERS): Promise<number> {
  const t = performance.now();
  const res = await request(url, { method: 'POST', headers, body: BODY, dispatcher: agent });
  await res.body.text();
  return performance.now() - t;
}

export async function sequential(agent: Agent, url: string, n: number, headers?: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call(agent, url, headers));
  return out.sort((a, b) => a - b);
}

export interface LoadRun {
  /** Requests per second over the whole run. */
  rps: number;
  /** Every call's round trip (ms), sorted. */
  latencies: number[];
}

/**
 * `clients` concurrent loops of `perClient` calls over keep-alive connections; returns the rate
 * and every call's latency. With `sessions` each client first opens its own MCP session
 * (stateful servers).
 */
export async function load(url: string, clients: number, perClient: number, sessions = false): Promise<LoadRun> {
  const agent = newAgent(clients);
  const headers = await Promise.all(Array.from({ length: clients }, async () => (sessions ? openSession(agent, url) : HEADERS)));
  await Promise.all(headers.map((h) => call(agent, url, h))); // open the connections
  const t = performance.now();
  const perClientLatencies = await Promise.all(headers.map((h) => sequential(agent, url, perClient, h)));
  const rps = (clients * perClient) / ((performance.now() - t) / 1000);
  await agent.close();
  return { rps, latencies: perClientLatencies.flat().sort((a, b) => a - b) };
}

/**
 * `clients` concurrent loops of calls over keep-alive connections, beside `beside` (started once
 * the connections are open) until it settles, each loop finishing its call in flight; every
 * call's latency, sorted, and what `beside` returned. For traffic that runs next to something
 * else, such as a large transfer.
 */
export async function loadBeside<T>(url: string, clients: number, beside: () => Promise<T>): Promise<LoadRun & { beside: T }> {
  const agent = newAgent(clients);
  await Promise.all(Array.from({ length: clients }, () => call(agent, url))); // open the connections
  let stopped = false;
  const other = beside().finally(() => (stopped = true));
  const t = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stopped) latencies.push(await call(agent, url));
    }),
  );
  const rps = latencies.length / ((performance.now() - t) / 1000);
  await agent.close();
  return { rps, latencies: latencies.sort((a, b) => a - b), beside: await other };
}
