/**
 * A stand-in for ChatGPT's MCP connector, for tests: ChatGPT cannot be reached from the test
 * machines, so this client behaves the way ChatGPT is documented or publicly reported to behave,
 * over plain HTTP (fetch) so that every header and every session is under its control. Where a
 * behaviour is not established it is an option, off by default, and says so.
 *
 * Behaviour, and where each comes from:
 * - User-Agent `openai-mcp/1.0.0`: the connector's User-Agent in server logs published in
 *   openai/openai-apps-sdk-examples#201 and modelcontextprotocol/ext-apps#647. clientInfo
 *   `{ name: "openai-mcp", version: "1.0.0" }` mirrors it (seen in third-party server fixtures;
 *   not in OpenAI's docs). The protocolVersion it asks for is not documented (protocol-reference
 *   §5.1, UNVERIFIED): `protocolVersion`, 2025-06-18 by default.
 * - A new session for every tool call: each call is its own `initialize` (without
 *   `Mcp-Session-Id`) → `notifications/initialized` → `tools/list` → `tools/call` cycle, and the
 *   session is then abandoned, never DELETEd (openai/openai-apps-sdk-examples#201: "a fresh
 *   initialize → tools/list → tool-call cycle", 78 orphaned sessions; #165 and the OpenAI
 *   community thread "Connector tool calls generating fresh MCP session each invocation").
 *   `omitSessionOnCall` sends the `tools/call` without `Mcp-Session-Id` at all, as reported in
 *   modelcontextprotocol/ext-apps#647.
 * - Request `_meta` hints (OpenAI Apps SDK reference, "_meta fields the client provides",
 *   developers.openai.com/apps-sdk/reference): `openai/locale` on initialize and tool calls;
 *   `openai/userAgent`, `openai/userLocation` (city, region, country, timezone, longitude,
 *   latitude) and `openai/subject` (an anonymized user id) on tool calls. The current reference
 *   also lists `openai/session`, an anonymized conversation id that correlates the tool calls of
 *   one chat, and `openai/organization` (as quoted by public copies of the page; the protocol
 *   reference §5.3 marks the key names UNVERIFIED). mcpscope records whatever keys arrive.
 * - `server/discover` probing with fallback (`probe: 'every-session'`): the 2026-07-28 way for a
 *   client that speaks both eras — probe with a modern request, fall back to `initialize` when the
 *   answer is not a DiscoverResult or a recognised modern error (protocol-reference §1.5;
 *   modelcontextprotocol/modelcontextprotocol#2844, which also asks clients to cache the era per
 *   server). Whether ChatGPT probes at all is UNVERIFIED (§5.1); probing before every session is
 *   the "probe loop" mcpscope warns about.
 * - OAuth when the server asks (`oauth`): on 401, RFC 9728 discovery from `WWW-Authenticate`'s
 *   `resource_metadata`, RFC 8414 authorization-server metadata, dynamic client registration,
 *   authorization code with PKCE S256, and `resource` echoed throughout (OpenAI Apps SDK "Authenticate
 *   users" page, protocol-reference §5.2). The redirect URI
 *   `https://chatgpt.com/connector_platform_oauth_redirect` is from public repositories
 *   (UNVERIFIED). The authorization server in tests consents at once, so the redirect is read
 *   from its `Location` instead of a browser.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SseParser, classifyText, type JsonObject } from '@mcpscope/protocol';

export const CHATGPT_USER_AGENT = 'openai-mcp/1.0.0';
export const CHATGPT_REDIRECT_URI = 'https://chatgpt.com/connector_platform_oauth_redirect';

export interface StandInOptions {
  mcpUrl: string;
  /** `_meta["openai/session"]`; a fresh anonymized-looking id by default. */
  conversationId?: string;
  /** Send the `openai/*` hints (default true); without them only credential or time can join sessions. */
  hints?: boolean;
  probe?: 'never' | 'every-session';
  protocolVersion?: string;
  omitSessionOnCall?: boolean;
  /** Authorize with OAuth when the server answers 401. */
  oauth?: boolean;
}

/** What a call returned: the tool result or the JSON-RPC error, and the session it ran in. */
export interface StandInCall {
  sessionId?: string;
  result?: JsonObject;
  error?: { code: number; message: string };
  httpStatus: number;
}

interface Answer {
  status: number;
  sessionId?: string;
  message?: JsonObject;
}

export class ChatGptStandIn {
  readonly conversationId: string;
  /** Every session id the servers minted for this stand-in, in order. */
  readonly sessions: string[] = [];
  private token: string | undefined;
  private nextId = 0;

  constructor(private readonly o: StandInOptions) {
    this.conversationId = o.conversationId ?? `v1/${randomBytes(12).toString('base64url')}`;
  }

  /** One tool call, ChatGPT style: a session of its own, listed first. */
  async callTool(name: string, args: JsonObject = {}): Promise<StandInCall> {
    const sessionId = await this.openSession();
    await this.request('tools/list', {}, sessionId);
    const meta = this.o.hints === false ? {} : this.callHints();
    const answer = await this.request('tools/call', { name, arguments: args, ...(Object.keys(meta).length ? { _meta: meta } : {}) }, this.o.omitSessionOnCall ? undefined : sessionId);
    const call: StandInCall = { httpStatus: answer.status };
    if (sessionId !== undefined) call.sessionId = sessionId;
    if (answer.message && 'result' in answer.message) call.result = answer.message.result as JsonObject;
    if (answer.message && 'error' in answer.message) call.error = answer.message.error as StandInCall['error'];
    return call;
  }

  /** A session opened and listed but never used (ChatGPT's control plane does this on refresh). */
  async listOnly(): Promise<string | undefined> {
    const sessionId = await this.openSession();
    await this.request('tools/list', {}, sessionId);
    return sessionId;
  }

  private async openSession(): Promise<string | undefined> {
    if (this.o.probe === 'every-session') {
      const probe = await this.probe();
      if (probe.message && 'result' in probe.message) throw new Error('the server speaks 2026-07-28: the stand-in only goes on in the legacy era');
    }
    const version = this.o.protocolVersion ?? '2025-06-18';
    const init = await this.request('initialize', {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: 'openai-mcp', version: '1.0.0' },
      ...(this.o.hints === false ? {} : { _meta: { 'openai/locale': 'en-US' } }),
    });
    if (init.status >= 400 || !init.message || !('result' in init.message)) throw new Error(`initialize failed: HTTP ${init.status} ${JSON.stringify(init.message)}`);
    const sessionId = init.sessionId;
    if (sessionId) this.sessions.push(sessionId);
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId, version);
    return sessionId;
  }

  /** A 2026-07-28 request before any session: what a client that speaks both eras sends first. */
  private probe(): Promise<Answer> {
    const id = ++this.nextId;
    const body = {
      jsonrpc: '2.0',
      id,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'openai-mcp', version: '1.0.0' } } },
    };
    return this.post(body, undefined, '2026-07-28', { 'mcp-method': 'server/discover' });
  }

  private request(method: string, params: JsonObject, sessionId?: string): Promise<Answer> {
    const version = method === 'initialize' ? undefined : (this.o.protocolVersion ?? '2025-06-18');
    return this.post({ jsonrpc: '2.0', id: ++this.nextId, method, params }, sessionId, version);
  }

  private async post(body: JsonObject, sessionId: string | undefined, version: string | undefined, extra: Record<string, string> = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': CHATGPT_USER_AGENT, ...extra };
    if (sessionId) headers['mcp-session-id'] = sessionId;
    if (version) headers['mcp-protocol-version'] = version;
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let res = await fetch(this.o.mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status === 401 && this.o.oauth && !this.token) {
      const challenge = res.headers.get('www-authenticate') ?? '';
      await res.arrayBuffer();
      this.token = await authorize(this.o.mcpUrl, challenge);
      headers.authorization = `Bearer ${this.token}`;
      res = await fetch(this.o.mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
    }
    const answer: Answer = { status: res.status };
    const minted = res.headers.get('mcp-session-id');
    if (minted) answer.sessionId = minted;
    const id = body.id;
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream')) {
      const message = await readSse(res, id);
      if (message) answer.message = message;
    } else {
      const text = await res.text();
      const msg = text ? classifyText(text) : undefined;
      if (msg && (msg.kind === 'response' || msg.kind === 'error')) answer.message = JSON.parse(text) as JsonObject;
    }
    return answer;
  }

  private callHints(): JsonObject {
    return {
      'openai/locale': 'en-US',
      'openai/userAgent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
      'openai/userLocation': { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR', timezone: 'Europe/Paris', longitude: 4.83, latitude: 45.76 },
      'openai/subject': 'v1/anon-subject-42',
      'openai/session': this.conversationId,
    };
  }
}

/** Reads SSE events until the response to `id` (the stream belongs to this one request). */
async function readSse(res: Response, id: unknown): Promise<JsonObject | undefined> {
  const parser = new SseParser();
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const items = done ? parser.end() : parser.push(value);
      for (const item of items) {
        if (item.type !== 'event' || !item.data) continue;
        const msg = classifyText(item.data);
        if ((msg.kind === 'response' || msg.kind === 'error') && msg.id === id) return JSON.parse(item.data) as JsonObject;
      }
      if (done) return undefined;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** RFC 9728 → RFC 8414 → dynamic registration → authorization code with PKCE; returns the access token. */
async function authorize(mcpUrl: string, challenge: string): Promise<string> {
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? new URL('/.well-known/oauth-protected-resource', mcpUrl).href;
  const resource = (await getJson(metadataUrl)) as { resource: string; authorization_servers: string[] };
  const issuer = resource.authorization_servers[0]!;
  const as = (await getJson(new URL('/.well-known/oauth-authorization-server', issuer).href)) as Record<string, string>;
  const registered = (await postJson(as.registration_endpoint!, {
    client_name: 'ChatGPT',
    redirect_uris: [CHATGPT_REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  })) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const auth = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: CHATGPT_REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    resource: resource.resource,
  })) auth.searchParams.set(k, v);
  const consent = await fetch(auth, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!);
  if (back.searchParams.get('state') !== state) throw new Error('OAuth state mismatch');
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: CHATGPT_REDIRECT_URI, client_id: registered.client_id, code_verifier: verifier, resource: resource.resource });
  const token = await fetch(as.token_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  if (!token.ok) throw new Error(`token endpoint: HTTP ${token.status}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return res.json();
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${url}: HTTP ${res.status}`);
  return res.json();
}
