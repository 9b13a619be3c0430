/**
 * The official SDK client's full session against server-everything: every feature it offers,
 * including what the server says on its own. The client declares roots (with listChanged),
 * sampling and elicitation; the session waits for the server's roots/list round trip ("Roots
 * updated"), runs scenario.ts's exercise (tools with progress, sampling, elicitation, resources,
 * prompts, logging level), asks for a completion, turns simulated logging on (its first message
 * comes at once), subscribes to a resource and turns resource updates on (the first update comes
 * at once), and announces a changed roots list (the server asks again). Every step waits for what
 * it expects, never for time.
 *
 * It returns the answers and every message the server started (requests without their ids,
 * progress without its token), so a run against the capture's mock can be compared with the
 * capture's own run.
 */
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { exercise, newClient, recordWire } from './scenario.js';

export const SUBSCRIBED_URI = 'demo://resource/static/document/architecture.md';

/** The steps of the session, in order, as the report names them. */
export const FULL_SESSION_STEPS = [
  'initialize (roots, sampling, elicitation)',
  'roots/list from the server after notifications/initialized, then its "Roots updated" log',
  'tools/list, tools/call echo, get-sum',
  'tools/call trigger-long-running-operation with progress',
  'tools/call trigger-sampling-request (sampling round trip)',
  'tools/call trigger-elicitation-request (elicitation round trip)',
  'resources/list, resources/read',
  'prompts/list, prompts/get',
  'logging/setLevel',
  'completion/complete',
  'tools/call toggle-simulated-logging, then its first notifications/message',
  'resources/subscribe, then its "Received Subscribe" log',
  'tools/call toggle-subscriber-updates, then notifications/resources/updated',
  'notifications/roots/list_changed, then roots/list again and "Roots updated" again',
] as const;

export interface FullSessionResult {
  answers: Record<string, unknown>;
  /** Server-started messages as the client received them (ids and progress tokens left out). */
  serverMessages: string[];
  /** Which steps completed (by FULL_SESSION_STEPS index). */
  completed: number[];
}

export async function fullSession(url: string, transportKind: 'streamable' | 'sse', waitMs = 10_000): Promise<FullSessionResult> {
  const client = newClient(true);
  let rootsAsked = 0;
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    rootsAsked++;
    return { roots: [{ uri: 'file:///work/project', name: 'project' }] };
  });
  const raw = transportKind === 'sse' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
  const { transport, wire } = recordWire(raw);
  const completed: number[] = [];
  const logs = () => wire.received.flatMap((m) => ('method' in m && m.method === 'notifications/message' ? [String((m.params as { data: unknown }).data)] : []));
  const until = async (what: string, ok: () => boolean) => {
    const deadline = Date.now() + waitMs;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`the session waited ${waitMs} ms for ${what}; completed steps: ${completed.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  try {
    await client.connect(transport);
    completed.push(0);
    await until('the server to ask for roots and log "Roots updated"', () => rootsAsked === 1 && logs().some((l) => l.startsWith('Roots updated')));
    completed.push(1);
    const seen = await exercise(client);
    completed.push(2, 3, 4, 5, 6, 7, 8);
    const completion = (await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } })).completion.values;
    completed.push(9);
    await client.setLoggingLevel('debug');
    const before = logs().length;
    const logging = textOf(await client.callTool({ name: 'toggle-simulated-logging', arguments: {} })).replace(/session \S+/, 'session …');
    await until('the first simulated log message', () => logs().length > before);
    completed.push(10);
    await client.subscribeResource({ uri: SUBSCRIBED_URI });
    await until('the subscribe log message', () => logs().some((l) => l.startsWith('Received Subscribe Resource request')));
    completed.push(11);
    const updates = textOf(await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} })).replace(/session \S+/, 'session …');
    await until('a resource update', () => wire.received.some((m) => 'method' in m && m.method === 'notifications/resources/updated'));
    completed.push(12);
    await client.sendRootsListChanged();
    await until('roots/list again and its log', () => rootsAsked === 2 && logs().filter((l) => l.startsWith('Roots updated')).length === 2);
    completed.push(13);
    return { answers: { ...seen, completion, logging, updates }, serverMessages: serverStarted(wire.received), completed };
  } catch (err) {
    (err as Error & { completed?: number[] }).completed = completed;
    throw err;
  } finally {
    await client.close();
  }
}

/** Server-started messages as comparable text: request ids and progress tokens left out. */
function serverStarted(received: JSONRPCMessage[]): string[] {
  return received.flatMap((m) => {
    if (!('method' in m)) return [];
    const { id: _id, ...rest } = m as { id?: unknown; method: string; params?: Record<string, unknown> };
    if (rest.method === 'notifications/progress') {
      const { progressToken: _token, ...params } = rest.params as Record<string, unknown>;
      return [JSON.stringify({ ...rest, params })];
    }
    return [JSON.stringify(rest)];
  });
}

function textOf(result: object): string {
  return (result as { content: { text?: string }[] }).content.map((c) => c.text ?? '').join('\n');
}
