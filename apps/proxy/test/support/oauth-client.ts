/**
 * The official SDK client's OAuth support, driven as an app would drive it: an OAuthClientProvider
 * that keeps everything in memory, and a "browser" that follows the authorization URL (through
 * whatever URL it names) to the redirect and takes the code.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export const REDIRECT_URL = 'http://127.0.0.1:1/callback';

export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT_URL;
  }
  get clientMetadata() {
    return { client_name: 'mcpscope-test', redirect_uris: [REDIRECT_URL], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
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

export interface OAuthRun {
  provider: MemoryOAuthProvider;
  /** The authorization code the "browser" brought back. */
  code?: string;
  /** Connected and authorised (absent when the flow failed). */
  client?: Client;
  /** Why the flow stopped, when it did. */
  error?: Error;
}

/**
 * Connect → 401 → discovery → registration → authorization (followed like a browser) → token →
 * connect again with the token. Stops at the first failure and says why.
 */
export async function runOAuthFlow(mcpUrl: string, clientName = 'oauth-test'): Promise<OAuthRun> {
  const provider = new MemoryOAuthProvider();
  const run: OAuthRun = { provider };
  try {
    const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    try {
      await new Client({ name: clientName, version: '1' }).connect(first);
    } catch (err) {
      if (!provider.authorizationUrl) throw err;
    }
    const consent = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    const location = consent.headers.get('location');
    if (!location) throw new Error(`the authorization endpoint answered ${consent.status} without a redirect`);
    run.code = new URL(location).searchParams.get('code') ?? undefined;
    if (!run.code) throw new Error(`no code in the redirect: ${location}`);
    await first.finishAuth(run.code);
    const client = new Client({ name: clientName, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    run.client = client;
  } catch (err) {
    run.error = err as Error;
  }
  return run;
}
