/**
 * A small OAuth world for tests: an authorization server (RFC 8414 metadata, dynamic client
 * registration, authorization code with PKCE S256) and an MCP server that demands its bearer
 * tokens, advertising RFC 9728 protected-resource metadata by `WWW-Authenticate`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface OAuthWorld {
  asUrl: string;
  mcpUrl: string;
  issuedTokens: Set<string>;
  /** `resource` values the token endpoint was asked for. */
  requestedResources: string[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOAuthWorld(): Promise<OAuthWorld> {
  const issuedTokens = new Set<string>();
  const requestedResources: string[] = [];
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const json = (res: import('node:http').ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

  let asUrl = '';
  const as = createServer(async (req, res) => {
    const url = new URL(req.url!, asUrl);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: asUrl,
        authorization_endpoint: `${asUrl}/authorize`,
        token_endpoint: `${asUrl}/token`,
        registration_endpoint: `${asUrl}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const meta = JSON.parse(await body(req)) as Record<string, unknown>;
      return json(res, 201, { ...meta, client_id: `client-${randomUUID()}`, token_endpoint_auth_method: 'none' });
    }
    if (url.pathname === '/authorize') {
      // The "user" consents at once: redirect back with a code.
      const code = randomUUID();
      codes.set(code, { challenge: url.searchParams.get('code_challenge')!, redirectUri: url.searchParams.get('redirect_uri')! });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      if (url.searchParams.get('state')) back.searchParams.set('state', url.searchParams.get('state')!);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await body(req));
      const grant = codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return json(res, 400, { error: 'invalid_grant' });
      requestedResources.push(form.get('resource') ?? '');
      const token = `tok-${randomUUID()}`;
      issuedTokens.add(token);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    res.writeHead(404).end();
  });
  asUrl = await listen(as);

  let rsUrl = '';
  const rs = createServer(async (req, res) => {
    const url = new URL(req.url!, rsUrl);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(res, 200, { resource: `${rsUrl}/mcp`, authorization_servers: [asUrl], bearer_methods_supported: ['header'] });
    }
    if (url.pathname !== '/mcp') return res.writeHead(404).end();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !issuedTokens.has(token)) {
      res.writeHead(401, { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${rsUrl}/.well-known/oauth-protected-resource/mcp", scope="mcp"`, 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: 'invalid_token' }));
    }
    const server = new McpServer({ name: 'protected', version: '1.0.0' });
    server.registerTool('whoami', { description: 'says the caller is authorised' }, async () => ({ content: [{ type: 'text', text: 'authorised' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    res.on('close', () => void server.close());
    await transport.handleRequest(req, res, JSON.parse((await body(req)) || 'null'));
  });
  rsUrl = await listen(rs);

  return {
    asUrl,
    mcpUrl: `${rsUrl}/mcp`,
    issuedTokens,
    requestedResources,
    close: async () => {
      for (const s of [as, rs]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
