/**
 * One SDK client session that exercises what a real client does: tools (with progress, sampling
 * and elicitation round trips), resources, prompts and logging. It returns what the client saw,
 * so a test can run it directly and through the tap and compare; the transport is wrapped to
 * keep every message it sent and received, to compare with the capture.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface Wire {
  sent: JSONRPCMessage[];
  received: JSONRPCMessage[];
}

/** Keeps a copy of every message the transport sends and delivers. */
export function recordWire<T extends Transport>(transport: T): { transport: T; wire: Wire } {
  const wire: Wire = { sent: [], received: [] };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.sent.push(structuredClone(message));
    return send(message, options);
  };
  let inner: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => inner,
    set: (fn: Transport['onmessage']) => {
      inner = fn && ((message, extra) => {
        wire.received.push(structuredClone(message));
        fn(message, extra);
      });
    },
  });
  return { transport, wire };
}

/** An SDK client that answers sampling and elicitation; with `roots`, it declares roots too (the caller answers roots/list). */
export function newClient(roots = false): Client {
  const client = new Client({ name: 'mcpscope-test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {}, ...(roots ? { roots: { listChanged: true } } : {}) } });
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    const first = req.params.messages[0]?.content;
    const text = first && 'text' in first ? first.text : '';
    return { role: 'assistant', model: 'test-model', stopReason: 'endTurn', content: { type: 'text', text: `sampled: ${text}` } };
  });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
  return client;
}

const textOf = (result: object) => ((result as { content: { type: string; text?: string }[] }).content).map((c) => c.text ?? c.type).join('\n');

/** What a user would notice: the answers, in order. */
export async function exercise(client: Client) {
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const echo = textOf(await client.callTool({ name: 'echo', arguments: { message: 'hello through the tap' } }));
  const sum = textOf(await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }));
  const progress: number[] = [];
  const long = textOf(await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) }));
  const sampling = textOf(await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'a haiku', maxTokens: 20 } }));
  const elicitation = textOf(await client.callTool({ name: 'trigger-elicitation-request', arguments: {} }));
  const resources = (await client.listResources()).resources.map((r) => r.uri);
  const staticDoc = resources.find((u) => u.startsWith('demo://resource/static/document/'))!;
  const read = (await client.readResource({ uri: staticDoc })).contents.map((c) => ('text' in c ? c.text.length : 0));
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
  const prompt = (await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon', state: 'Rhône' } })).messages;
  const logging = await client.setLoggingLevel('warning');
  return { tools, echo, sum, long, progress, sampling, elicitation, resources: resources.sort(), read, prompts, prompt, logging };
}
