/**
 * A deliberately changed server for `verify`: a real upstream (server-everything) behind a
 * pass-through that alters the answers of chosen tools, the way a careless release would:
 * one renames a field of its result, another breaks with a JSON-RPC error. Every other byte
 * passes through unchanged (the SSE stream is rewritten event by event, ids kept; a JSON answer whole).
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/** What happens to a tool's answer: its result rewritten, or replaced by a JSON-RPC error. */
export type Alteration = { rewrite(result: Record<string, unknown>): Record<string, unknown> } | { error: { code: number; message: string } };

export interface AlteredUpstream {
  url: string;
  close(): Promise<void>;
}

export async function startAlteredUpstream(upstreamUrl: string, tools: Record<string, Alteration>): Promise<AlteredUpstream> {
  const upstream = new URL(upstreamUrl);
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
    const answer = await fetch(new URL(req.url ?? '/', upstream), { method: req.method!, headers, ...(body.length > 0 ? { body } : {}) });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
    });
    const call = body.length > 0 ? toolCall(body.toString('utf8')) : undefined;
    const alteration = call ? tools[call.name] : undefined;
    if (!alteration || !answer.body) {
      res.writeHead(answer.status, out);
      if (answer.body) for await (const chunk of answer.body) res.write(chunk);
      return void res.end();
    }
    const text = await answer.text();
    const sse = (answer.headers.get('content-type') ?? '').includes('text/event-stream');
    res.writeHead(answer.status, out).end(sse ? text.replace(/^data: (.*)$/gm, (line, json: string) => `data: ${alter(json, call!.id, alteration)}`) : alter(text, call!.id, alteration));
  });
  const listening = await listenOnLoopback(server);
  return { url: `${listening.origin}${upstream.pathname}`, close: listening.close };
}

function toolCall(text: string): { name: string; id: unknown } | undefined {
  try {
    const m = JSON.parse(text) as { method?: string; id?: unknown; params?: { name?: unknown } };
    return m.method === 'tools/call' && typeof m.params?.name === 'string' ? { name: m.params.name, id: m.id } : undefined;
  } catch {
    return undefined;
  }
}

function alter(json: string, id: unknown, alteration: Alteration): string {
  let m: { id?: unknown; result?: Record<string, unknown> };
  try {
    m = JSON.parse(json) as typeof m;
  } catch {
    return json;
  }
  if (m.id !== id || !m.result) return json;
  return JSON.stringify('error' in alteration ? { jsonrpc: '2.0', id, error: alteration.error } : { ...m, result: alteration.rewrite(m.result) });
}
