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

/** One tools/call round trip; returns milliseconds. */
export async function call(agent: Agent, url: string): Promise<number> {
  const t = performance.now();
  const res = await request(url, { method: 'POST', headers: HEADERS, body: BODY, dispatcher: agent });
  await res.body.text();
  return performance.now() - t;
}

export async function sequential(agent: Agent, url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call(agent, url));
  return out.sort((a, b) => a - b);
}

/** `clients` concurrent loops of `perClient` calls; returns requests per second. */
export async function throughput(url: string, clients: number, perClient: number): Promise<number> {
  const agent = newAgent(clients);
  await Promise.all(Array.from({ length: clients }, () => call(agent, url))); // open the connections
  const t = performance.now();
  await Promise.all(Array.from({ length: clients }, () => sequential(agent, url, perClient)));
  const rps = (clients * perClient) / ((performance.now() - t) / 1000);
  await agent.close();
  return rps;
}
