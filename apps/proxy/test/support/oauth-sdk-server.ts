/**
 * A real OAuth-protected MCP server built from the official SDK's server-side auth helpers:
 * `createMcpExpressApp`, `mcpAuthRouter` (RFC 8414 metadata, RFC 9728 protected-resource metadata,
 * dynamic client registration, authorization with PKCE, token), `requireBearerAuth` on the MCP
 * endpoint, and the SDK's own in-memory provider (`DemoInMemoryAuthProvider`, which consents at
 * once). Stateful Streamable HTTP behind it, with one tool, `whoami`.
 *
 * The server is configured with the URL clients reach it by (`publicOrigin`), as a server behind a
 * tunnel or reverse proxy is: its metadata then names that origin, and discovery, registration and
 * token requests all come back through the tap. `flaw` breaks it the ways the connection flow's
 * checks are about:
 * - `wrong-resource`: the protected-resource metadata names another host's URL (a production URL
 *   left in the configuration), which RFC 9728 §3.3 forbids clients to use;
 * - `no-s256`: the authorization-server metadata offers only the `plain` PKCE method;
 * - `no-www-authenticate`: the MCP endpoint's 401 carries no `WWW-Authenticate`.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export type OAuthFlaw = 'wrong-resource' | 'no-s256' | 'no-www-authenticate';

export interface SdkOAuthServer {
  /** The upstream's own MCP URL (give it to mcpscope as --target). */
  mcpUrl: string;
  /** Access tokens issued so far (to grep stored captures for). */
  issuedTokens(): string[];
  close(): Promise<void>;
}

/** Express request/response as far as this file uses them (the SDK's types name express's). */
interface Req {
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  auth?: { clientId: string };
}
interface Res {
  set(name: string, value: string): Res;
  status(code: number): Res;
  json(value: unknown): void;
  on(event: string, listener: () => void): void;
}

export async function startSdkOAuthServer(options: { publicOrigin: string; flaw?: OAuthFlaw; port?: number }): Promise<SdkOAuthServer> {
  const publicOrigin = options.publicOrigin.replace(/\/+$/, '');
  const issuerUrl = new URL(publicOrigin);
  const provider = new DemoInMemoryAuthProvider();
  const tokens = (provider as unknown as { tokens: Map<string, unknown> }).tokens;
  const app = createMcpExpressApp({ host: '127.0.0.1' });

  if (options.flaw === 'no-s256') {
    // Registered before the SDK's router, so it answers first: everything else as the SDK would.
    const metadata = { ...createOAuthMetadata({ provider, issuerUrl }), code_challenge_methods_supported: ['plain'] };
    app.get('/.well-known/oauth-authorization-server', (_req: Req, res: Res) => res.json(metadata));
  }
  const resourceServerUrl = options.flaw === 'wrong-resource' ? new URL('https://mcp.example.com/mcp') : new URL(`${publicOrigin}/mcp`);
  app.use(mcpAuthRouter({ provider, issuerUrl, resourceServerUrl, scopesSupported: ['mcp:tools'], authorizationOptions: { rateLimit: false }, tokenOptions: { rateLimit: false }, clientRegistrationOptions: { rateLimit: false } }));

  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: `${publicOrigin}/.well-known/oauth-protected-resource/mcp` });
  const guard =
    options.flaw === 'no-www-authenticate'
      ? (req: Req, res: Res, next: () => void) => {
          // The same check, but its challenge header is dropped: a bare 401.
          const set = res.set.bind(res);
          res.set = (name: string, value: string) => (name.toLowerCase() === 'www-authenticate' ? res : set(name, value));
          bearer(req, res, next);
        }
      : bearer;

  const transports = new Map<string, StreamableHTTPServerTransport>();
  const mcp = async (req: Req, res: Res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      if (id !== undefined || !isInitializeRequest(req.body)) return res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void transports.set(sid, created) });
      created.onclose = () => created.sessionId && transports.delete(created.sessionId);
      const server = new McpServer({ name: 'oauth-protected', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Says which OAuth client is calling.' }, async (extra) => ({
        content: [{ type: 'text' as const, text: `authorised as ${extra.authInfo?.clientId ?? 'nobody'}` }],
      }));
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req as never, res as never, req.body);
  };
  app.post('/mcp', guard, mcp);
  app.get('/mcp', guard, mcp);
  app.delete('/mcp', guard, mcp);

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    issuedTokens: () => [...tokens.keys()],
    close: async () => {
      for (const t of transports.values()) await t.close().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
