/**
 * `mcpscope audit --target`: connects to the server as a host would, through the tap in front of
 * it, so everything it does is captured like other traffic: initialize, every page of
 * tools/list, resources/list, a resources/read of every widget template, and, when the server
 * asks for sign-in, the OAuth discovery a host does (protected-resource metadata, then the
 * authorization server's metadata). With `submitting`, also the domain-verification file.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearerChallenge, isJsonObject, widgetOfTool, type JsonObject } from '@mcpscope/protocol';

export interface ProbeOptions {
  /** The MCP endpoint on the tap. */
  mcpUrl: string;
  /** The server's own origin (what the tap forwards to), to route its OAuth documents through the tap. */
  upstreamOrigin: string;
  headers: Record<string, string>;
  submitting: boolean;
  timeoutMs: number;
}

export interface ProbeResult {
  /** What the probe could not do, in words (the audit still runs on what was captured). */
  notes: string[];
}

const MAX_PAGES = 50;

export async function probeTarget(options: ProbeOptions): Promise<ProbeResult> {
  const notes: string[] = [];
  const client = new Client({ name: 'mcpscope-audit', version: '1' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never });
  const transport = new StreamableHTTPClientTransport(new URL(options.mcpUrl), { requestInit: { headers: options.headers } });
  const timeout = { timeout: options.timeoutMs };
  try {
    await client.connect(transport, timeout);
  } catch (err) {
    notes.push(`could not initialize: ${(err as Error).message}`);
    await discoverOAuth(options, notes);
    if (options.submitting) await get(new URL('/.well-known/openai-apps-challenge', options.mcpUrl).href, notes);
    await client.close().catch(() => undefined);
    return { notes };
  }
  try {
    const tools: JsonObject[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await client.listTools(cursor ? { cursor } : {}, timeout);
      tools.push(...(listed.tools as JsonObject[]));
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    const uris = new Set(tools.map((t) => widgetOfTool(t)?.uri).filter((u): u is string => u !== undefined));
    if (client.getServerCapabilities()?.resources) {
      try {
        const listed = await client.listResources({}, timeout);
        for (const r of listed.resources) if (r.uri.startsWith('ui://')) uris.add(r.uri);
      } catch (err) {
        notes.push(`resources/list failed: ${(err as Error).message}`);
      }
    }
    for (const uri of uris) {
      try {
        await client.readResource({ uri }, timeout);
      } catch (err) {
        notes.push(`resources/read ${uri} failed: ${(err as Error).message}`);
      }
    }
    if (options.submitting) await get(new URL('/.well-known/openai-apps-challenge', options.mcpUrl).href, notes);
  } finally {
    await client.close().catch(() => undefined);
  }
  return { notes };
}

/** The discovery a host does after a 401: the challenge's resource_metadata, else the well-known URL. */
async function discoverOAuth(options: ProbeOptions, notes: string[]): Promise<void> {
  const challenge = await fetch(options.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }) }).catch(() => undefined);
  if (!challenge || challenge.status !== 401) return;
  await challenge.body?.cancel();
  const mcp = new URL(options.mcpUrl);
  const advertised = bearerChallenge(challenge.headers.get('www-authenticate') ?? undefined)?.params.resource_metadata;
  const prmUrl = advertised ? throughTap(advertised, options) : `${mcp.origin}/.well-known/oauth-protected-resource${mcp.pathname === '/' ? '' : mcp.pathname}`;
  const prm = await get(prmUrl, notes);
  const server = prm && Array.isArray(prm.authorization_servers) && typeof prm.authorization_servers[0] === 'string' ? prm.authorization_servers[0] : undefined;
  if (!server) return;
  const issuer = new URL(throughTap(server, options));
  const path = issuer.pathname === '/' ? '' : issuer.pathname;
  const metadata = (await get(`${issuer.origin}/.well-known/oauth-authorization-server${path}`, notes, true)) ?? (await get(`${issuer.origin}/.well-known/openid-configuration${path}`, notes));
  if (!metadata) notes.push(`no authorization-server metadata found for ${server}`);
}

/** A URL on the server's own origin, moved onto the tap so that the request is captured. */
function throughTap(url: string, options: ProbeOptions): string {
  try {
    const u = new URL(url);
    if (u.origin !== options.upstreamOrigin) return url;
    const tap = new URL(options.mcpUrl);
    return `${tap.origin}${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

async function get(url: string, notes: string[], quiet = false): Promise<JsonObject | undefined> {
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    const text = await res.text();
    if (!res.ok) {
      if (!quiet) notes.push(`GET ${url} answered ${res.status}`);
      return undefined;
    }
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
