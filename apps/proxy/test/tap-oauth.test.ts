// OAuth through the tap with --public-url: the SDK client discovers the protected-resource
// metadata and the authorization server through the tap, registers, authorises with PKCE, and
// calls a tool with its token, which reaches the upstream byte for byte and is never stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { freePort } from './support/free-port.js';
import { startOAuthWorld, type OAuthWorld } from './support/oauth-servers.js';
import { allFrames } from './support/capture.js';

let world: OAuthWorld;
let app: Mcpscope;
let publicMcpUrl: string;
beforeAll(async () => {
  world = await startOAuthWorld();
  const port = await freePort();
  // "localhost" stands in for the tunnel's host: the client knows the tap only by this URL.
  app = await startTestMcpscope({ target: world.mcpUrl, port, publicUrl: `http://localhost:${port}` });
  publicMcpUrl = app.publicMcpUrl!;
});
afterAll(async () => {
  await app?.close();
  await world?.close();
});

class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return 'http://127.0.0.1:1/callback';
  }
  get clientMetadata() {
    return { client_name: 'mcpscope-test', redirect_uris: ['http://127.0.0.1:1/callback'], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('OAuth through the tap', () => {
  it('rewrites the upstream origin in WWW-Authenticate to the public URL, keeping scope and error', async () => {
    const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${new URL(publicMcpUrl).origin}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    const prm = await (await fetch(`${app.tapUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toEqual({ resource: publicMcpUrl, authorization_servers: [world.asUrl], bearer_methods_supported: ['header'] });
  });

  it('lets the SDK client complete its authorization flow and call a tool', async () => {
    const provider = new TestProvider();
    const first = new StreamableHTTPClientTransport(new URL(publicMcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'oauth-test', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    // The "browser": follow the authorization URL to the redirect, take the code.
    const consent = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    await first.finishAuth(code);
    expect(world.requestedResources).toEqual([publicMcpUrl]);

    const client = new Client({ name: 'oauth-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(publicMcpUrl), { authProvider: provider }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'authorised' }]);
    await client.close();
    await settled(app);

    const token = provider.saved!.access_token;
    const frames = allFrames(app);
    expect(frames.some((f) => f.http?.requestHeaders?.authorization === `Bearer [redacted] (${`Bearer ${token}`.length} chars)`)).toBe(true);
    expect(JSON.stringify(frames)).not.toContain(token);
    expect(app.store.exchanges(100).find((e) => e.target === 'whoami')).toMatchObject({ status: 'ok' });
  });
});
