/**
 * A gift-ideas MCP server that commits the lesson's mistakes on demand, written on raw node:http
 * because the SDK's server refuses to make them. Stateless Streamable HTTP: each POST is answered
 * with JSON, or with an SSE stream when the request's `_meta.sse` is true (a batch follows its
 * first item). What it does for a tools/call depends on the tool's name:
 *
 * - `suggest_gifts`: ok, or `-32603` when `budget` < 10 (a business failure sent as a protocol error);
 * - `wrap_gift`: `isError: true` with an empty `content`;
 * - `slow_echo`: answers after `params.arguments.waitFor` is released (for ids in flight twice);
 * - `push_gifts`: a custom notification holding the call's id, then the result;
 * - `forget_me`: no answer at all (the POST's answer ends without it);
 * - anything else, and a call without `params.arguments`: `-32603 Internal error`.
 * An unknown method is answered with `isError: true`; a batch answer leaves out `prompts/list`.
 */
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, type Listening } from './loopback.js';

export interface MistakenGiftServer extends Listening {
  url: string;
  /** Lets a held `slow_echo` call with this `waitFor` key answer. */
  release(key: string): void;
}

type Json = Record<string, unknown>;
const TOOLS = [
  { name: 'suggest_gifts', inputSchema: { type: 'object', properties: { occasion: { type: 'string' }, budget: { type: 'number' } }, required: ['occasion'] } },
  { name: 'wrap_gift', inputSchema: { type: 'object', properties: { gift: { type: 'string' } } } },
  { name: 'slow_echo', inputSchema: { type: 'object', properties: { text: { type: 'string' }, waitFor: { type: 'string' } } } },
  { name: 'push_gifts', inputSchema: { type: 'object', properties: { occasion: { type: 'string' } } } },
  { name: 'forget_me', inputSchema: { type: 'object' } },
];
const SPEC_METHODS = new Set(['initialize', 'ping', 'tools/list', 'tools/call', 'prompts/list', 'resources/list', 'resources/read']);

export async function startMistakenGiftServer(): Promise<MistakenGiftServer> {
  const held = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  const gate = (key: string) => {
    let p = waiting.get(key);
    if (!p) {
      p = new Promise<void>((resolve) => held.set(key, resolve));
      waiting.set(key, p);
    }
    return p;
  };

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      }
      const items = (Array.isArray(parsed) ? parsed : [parsed]) as Json[];
      const sse = items.some((m) => ((m.params as Json | undefined)?._meta as Json | undefined)?.sse === true);
      void answerAll(items, sse, res, gate);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    url: `${listening.origin}/mcp`,
    release: (key) => {
      gate(key);
      held.get(key)!();
    },
  };
}

async function answerAll(items: Json[], sse: boolean, res: ServerResponse, gate: (key: string) => Promise<void>): Promise<void> {
  const requests = items.filter((m) => 'id' in m && typeof m.method === 'string');
  if (requests.length === 0) return void res.writeHead(202).end();
  const batch = items.length > 1;
  if (sse) res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
  const send = (m: Json) => res.write(`data: ${JSON.stringify(m)}\n\n`);
  const answers: Json[] = [];
  for (const m of requests) {
    // The mistake of batches: prompts/list is never answered.
    if (batch && m.method === 'prompts/list') continue;
    const answer = await answerOne(m, gate, sse ? send : undefined);
    if (answer === undefined) continue;
    answers.push(answer);
    if (sse) send(answer);
  }
  if (sse) return void res.end();
  if (answers.length === 0) return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(batch ? answers : answers[0]));
}

async function answerOne(m: Json, gate: (key: string) => Promise<void>, notify: ((m: Json) => void) | undefined): Promise<Json | undefined> {
  const id = m.id;
  const params = (m.params ?? {}) as Json;
  const result = (r: Json) => ({ jsonrpc: '2.0', id, result: r });
  const error = (code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
  switch (m.method) {
    case 'initialize':
      return result({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'mistaken-gifts', version: '1.0.0' } });
    case 'tools/list':
      return result({ tools: TOOLS });
    case 'prompts/list':
      return result({ prompts: [] });
    case 'tools/call':
      break;
    default:
      if (!SPEC_METHODS.has(String(m.method))) return result({ content: [{ type: 'text', text: `unsupported: ${String(m.method)}` }], isError: true });
      return error(-32601, 'Method not found');
  }
  // A call whose input is not in params.arguments fails inside the server, as careless code does.
  if (!('arguments' in params)) return error(-32603, 'Internal error');
  const args = params.arguments as Json;
  switch (params.name) {
    case 'suggest_gifts':
      if (typeof args.budget === 'number' && args.budget < 10) return error(-32603, `No gifts under ${args.budget} EUR`);
      return result({ content: [{ type: 'text', text: `a vase for the ${String(args.occasion)}` }] });
    case 'wrap_gift':
      return result({ content: [], isError: true });
    case 'slow_echo':
      await gate(String(args.waitFor));
      return result({ content: [{ type: 'text', text: `echo: ${String(args.text)}` }] });
    case 'forget_me':
      return undefined;
    case 'push_gifts':
      notify?.({ jsonrpc: '2.0', method: 'notifications/gift_suggestions', params: { id, gifts: ['a vase', 'a scarf'] } });
      return result({ content: [{ type: 'text', text: 'sent as a notification' }] });
    default:
      return error(-32603, 'Internal error');
  }
}
