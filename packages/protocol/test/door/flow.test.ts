// The connection flow: each client's door records read as a story, with the checks the issue
// asks for, each red or amber with its reason, and the verdict a user reads first.
import { beforeEach, describe, expect, it } from 'vitest';
import { buildConnectionFlows, type ConnectionFlow, type DoorRecord, type ExchangeSummary, type FlowFacts, type SessionSummary } from '../../src/index.js';
import { door, goodAsMetadata, goodOAuthStory, ORIGIN, resetDoorIds } from '../support/door.js';

beforeEach(() => resetDoorIds());

const exchanges = new Map<string, ExchangeSummary>();
const sessions = new Map<string, SessionSummary>();
const facts: FlowFacts = { exchange: (id) => exchanges.get(id), session: (key) => sessions.get(key) };

function exchange(id: string, method: string, status: ExchangeSummary['status'] = 'ok', over: Partial<ExchangeSummary> = {}): void {
  exchanges.set(id, { id, sessionKey: 's1', requester: 'client', kind: 'request', method, status, startTs: 0, frameSeqs: [Number(id), Number(id) + 1], size: 10, diagnostics: 0, updatedSeq: 1, ...over });
}

beforeEach(() => {
  exchanges.clear();
  sessions.clear();
  exchange('1', 'initialize', 'transport_error', { sessionKey: 'client:node' });
  exchange('10', 'initialize');
  exchange('13', 'tools/call');
  sessions.set('s1', { sessionKey: 's1', transport: 'sse', protocolVersion: '2025-11-25', serverInfo: { name: 'protected' }, clientInfo: { name: 'oauth-test', version: '1' }, clientLabel: 'oauth-test 1', firstTs: 0, lastTs: 0, counts: {} });
});

function only(records: DoorRecord[]): ConnectionFlow {
  const flows = buildConnectionFlows(records, facts);
  expect(flows).toHaveLength(1);
  return flows[0]!;
}

const checks = (flow: ConnectionFlow) => flow.steps.map((s) => `${s.colour}:${s.check}`);
const step = (flow: ConnectionFlow, check: string) => flow.steps.find((s) => s.check === check);

describe('connection flow', () => {
  it('heads a client that POSTs to / and then probes discovery with the wrong path, not the discovery it failed', () => {
    const host = 'brave-otter.trycloudflare.com';
    const via = { host, requestHeaders: { 'x-forwarded-proto': 'https', 'user-agent': 'openai-mcp/1.0.0' }, userAgent: 'openai-mcp/1.0.0' };
    const records = [
      door({ ...via, method: 'POST', path: '/', status: 406, requestHeaders: { ...via.requestHeaders, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }),
      door({ ...via, path: '/.well-known/oauth-protected-resource', status: 404 }),
      door({ ...via, path: '/.well-known/oauth-authorization-server', status: 404 }),
    ];
    const flow = buildConnectionFlows(records, { ...facts, mcpPath: '/mcp' })[0]!;
    expect(step(flow, 'not-mcp-endpoint')).toMatchObject({ colour: 'red', phase: 'mcp', title: 'POST / → 406', records: [records[0]!.id] });
    expect(flow.verdict).toEqual({ kind: 'failed', sentence: `POST / is not the MCP endpoint: use https://${host}/mcp.` });
    // Without the tap's MCP path known, the advice still names the wrong path first.
    expect(buildConnectionFlows(records, facts)[0]!.verdict.sentence).toBe('POST / is not the MCP endpoint: use the URL of the MCP endpoint.');
  });

  it('tells a good OAuth connection as a green story: challenge, metadata, registration, sign-in, token, MCP', () => {
    const flow = only(goodOAuthStory());
    expect(checks(flow)).toEqual([
      'green:challenge',
      'green:prm',
      'green:asm',
      'green:registration',
      'green:authorization',
      'green:token',
      'green:initialize',
      'green:mcp-calls',
    ]);
    expect(flow.verdict).toEqual({ kind: 'connected', sentence: 'connected (2025-11-25)' });
    expect(flow.label).toBe('oauth-test 1');
    expect(step(flow, 'registration')!.reason).toContain('client-1');
    expect(step(flow, 'token')!.reason).toBe('Token issued for authorization_code: Bearer, expires in 3600 s.');
    // Every step links the records it is about.
    expect(step(flow, 'challenge')!.records).toEqual([1, 2]);
    expect(step(flow, 'initialize')!.exchanges).toEqual(['10']);
  });

  it('says the sign-in was not seen when the browser went to the authorization server directly', () => {
    const records = goodOAuthStory().filter((r) => !r.path.startsWith('/authorize'));
    const flow = only(records);
    const gap = step(flow, 'authorization-not-seen')!;
    expect(gap).toMatchObject({ colour: 'grey', phase: 'authorization', records: [] });
    expect(gap.reason).toContain("browser goes to the authorization server directly");
    expect(flow.steps.indexOf(gap)).toBe(flow.steps.findIndex((s) => s.check === 'token') - 1);
  });

  it('reds protected-resource metadata whose resource is not the URL the client used (RFC 9728 §3.3)', () => {
    const flow = only(goodOAuthStory({ prm: { resource: `${ORIGIN}/other`, authorization_servers: [ORIGIN] } }).slice(0, 2));
    const red = step(flow, 'prm-resource-mismatch')!;
    expect(red.colour).toBe('red');
    expect(red.reason).toContain(`names resource ${ORIGIN}/other, but the client reached the server at ${ORIGIN}/mcp`);
    expect(red.spec).toBe('RFC 9728 §3.3');
    expect(flow.verdict.kind).toBe('failed');
    expect(flow.verdict.sentence).toBe('failed at discovery: GET /.well-known/oauth-protected-resource/mcp → 200 (the red step says why)');
  });

  it('says to connect through the public URL when the metadata names it but the client used localhost', () => {
    const records = goodOAuthStory({ prm: { resource: 'https://abc.trycloudflare.com/mcp', authorization_servers: [ORIGIN] } }).slice(0, 2);
    const flows = buildConnectionFlows(records, { ...facts, publicOrigin: 'https://abc.trycloudflare.com' });
    expect(step(flows[0]!, 'prm-resource-mismatch')!.reason).toContain('connect the client through that URL, not http://127.0.0.1:7788');
    // Another host named is not the public URL: no such advice.
    resetDoorIds();
    const other = only(goodOAuthStory({ prm: { resource: 'https://abc.trycloudflare.com/mcp', authorization_servers: [ORIGIN] } }).slice(0, 2));
    expect(step(other, 'prm-resource-mismatch')!.reason).not.toContain('--public-url');
  });

  it('ambers a resource that is a parent path (the SDK accepts it, exact clients do not)', () => {
    const flow = only(goodOAuthStory({ prm: { resource: ORIGIN, authorization_servers: [ORIGIN] } }));
    expect(step(flow, 'prm-resource-parent')!.colour).toBe('amber');
  });

  it('reds authorization-server metadata without S256, and without any PKCE', () => {
    const noS256 = only(goodOAuthStory({ asm: { code_challenge_methods_supported: ['plain'] } }).slice(0, 3));
    expect(step(noS256, 'no-s256')).toMatchObject({ colour: 'red' });
    expect(step(noS256, 'no-s256')!.reason).toContain('[plain], without S256');
    resetDoorIds();
    const story = goodOAuthStory().slice(0, 3);
    const asm = goodAsMetadata();
    delete asm.code_challenge_methods_supported;
    story[2] = door({ id: 3, path: '/.well-known/oauth-authorization-server', reply: asm });
    expect(step(only(story), 'pkce-not-advertised')!.colour).toBe('red');
  });

  it('reds a 401 without WWW-Authenticate, and ambers one without resource_metadata', () => {
    const bare = only(goodOAuthStory({ challenge: null }).slice(0, 2));
    expect(step(bare, 'unauthorized-without-challenge')).toMatchObject({ colour: 'red', phase: 'discovery', spec: 'RFC 9110 §15.5.2, RFC 9728 §5.1' });
    resetDoorIds();
    const noParam = only(goodOAuthStory({ challenge: 'Bearer realm="mcp"' }).slice(0, 2));
    expect(step(noParam, 'no-resource-metadata-param')!.colour).toBe('amber');
  });

  it('reds a resource_metadata URL that leaves the tap or does not resolve', () => {
    const elsewhere = only(goodOAuthStory({ challenge: 'Bearer resource_metadata="https://prod.example.com/.well-known/oauth-protected-resource/mcp"' }).slice(0, 1));
    expect(step(elsewhere, 'resource-metadata-elsewhere')!.reason).toContain('points at https://prod.example.com, not at http://127.0.0.1:7788');
    resetDoorIds();
    const story = goodOAuthStory().slice(0, 2);
    story[1] = door({ id: 2, path: '/.well-known/oauth-protected-resource/mcp', status: 404 });
    const flow = only(story);
    expect(step(flow, 'resource-metadata-unresolved')!.reason).toContain('answered 404');
    expect(step(flow, 'no-protected-resource-metadata')!.colour).toBe('red');
  });

  it('greys the metadata URLs that were tried in order before the one that answered', () => {
    const records = [
      door({ path: '/.well-known/oauth-protected-resource/mcp', status: 404 }),
      door({ path: '/.well-known/oauth-protected-resource', reply: { resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] } }),
      door({ path: '/.well-known/oauth-authorization-server', status: 404 }),
      door({ path: '/.well-known/openid-configuration', reply: goodAsMetadata() }),
    ];
    const flow = only(records);
    expect(checks(flow)).toEqual(['grey:prm-not-here', 'green:prm', 'grey:asm-not-here', 'green:asm']);
    expect(flow.steps[0]!.reason).toBe('Not here (404); the client tried /.well-known/oauth-protected-resource next.');
  });

  it('shows a token error with its error and description', () => {
    const story = goodOAuthStory().slice(0, 6);
    story[5] = door({ id: 6, method: 'POST', path: '/token', status: 400, form: { grant_type: 'authorization_code', code: 'x', code_verifier: 'y', resource: `${ORIGIN}/mcp` }, reply: { error: 'invalid_grant', error_description: 'code expired' } });
    const red = step(only(story), 'token-error')!;
    expect(red.reason).toBe('The token request (authorization_code) was refused: invalid_grant — code expired.');
  });

  it('reds registration impossible when neither DCR nor CIMD is offered and the client stopped there', () => {
    const flow = only(goodOAuthStory({ asm: { registration_endpoint: undefined } }).slice(0, 3));
    expect(step(flow, 'no-registration')).toMatchObject({ colour: 'red' });
  });

  it('labels probes, and says "probed, never connected" when that is all a client did', () => {
    const flow = only([
      door({ path: '/mcp', mcp: true, status: 405, requestHeaders: { accept: 'text/html,application/xhtml+xml' } }),
      door({ path: '/favicon.ico', status: 404 }),
      door({ method: 'HEAD', path: '/mcp', mcp: true, status: 405 }),
    ]);
    expect(checks(flow)).toEqual(['grey:probe', 'grey:probe', 'grey:probe']);
    expect(flow.steps.map((s) => s.probe)).toEqual(['browser-get', 'favicon', 'head']);
    expect(flow.verdict).toEqual({ kind: 'probed', sentence: 'probed, never connected' });
    expect(flow.probes).toBe(3);
  });

  it('keeps probes together even when the deriver placed the error a GET probe got back in a conversation', () => {
    // A protected server answers the browser-like GET with a 401 JSON body: a frame, an exchange, a conversation.
    exchange('500', '(invalid)', 'protocol_error', { sessionKey: 'client:prober', conversation: 'c3' });
    const flow = only([
      door({ path: '/mcp', mcp: true, status: 401, requestHeaders: { accept: 'text/html' }, sessionKey: 'client:prober', frameSeqs: [500] }),
      door({ path: '/favicon.ico', status: 404 }),
      door({ method: 'HEAD', path: '/mcp', mcp: true, status: 401 }),
    ]);
    expect(flow.verdict.kind).toBe('probed');
  });

  it('reds an MCP endpoint that answers a browser-like GET with HTML or a redirect', () => {
    const html = only([door({ path: '/mcp', mcp: true, requestHeaders: { accept: 'text/html' }, responseHeaders: { 'content-type': 'text/html; charset=utf-8' } })]);
    expect(step(html, 'mcp-html')).toMatchObject({ colour: 'red', phase: 'probe' });
    resetDoorIds();
    const redirect = only([door({ method: 'POST', path: '/mcp', mcp: true, status: 302, responseHeaders: { location: 'https://login.example.com/' } })]);
    expect(step(redirect, 'mcp-redirect')!.reason).toContain('redirects to https://login.example.com/');
  });

  it('explains the guard refusing a tunnel Host and names the flag to add', () => {
    const flow = only([door({ method: 'POST', path: '/mcp', mcp: true, status: 403, answer: 'refused', host: 'abc.trycloudflare.com', note: 'Host "abc.trycloudflare.com" is not this tap.' })]);
    const red = step(flow, 'public-url-missing')!;
    expect(red.reason).toContain('restart mcpscope with --public-url https://abc.trycloudflare.com');
    expect(flow.verdict.sentence).toContain('failed at mcp');
  });

  it('says how many times the guard refused a Host it counted on one record', () => {
    const refusals = { count: 2497, lastTs: 2, samples: [] };
    const flow = only([door({ method: 'POST', path: '/mcp', mcp: true, status: 403, answer: 'refused', host: 'rebound.evil.example:7777', note: 'Host "rebound.evil.example:7777" is not this tap.', refusals })]);
    const red = step(flow, 'public-url-missing')!;
    expect(red.reason).toContain('refused Host rebound.evil.example:7777 2497 times');
    expect(red.reason).toContain('--allow-host rebound.evil.example');
  });

  it('reds CORS answers a browser would refuse, and greens a good preflight once', () => {
    const origin = 'https://inspector.example';
    const flow = only([
      door({ method: 'OPTIONS', path: '/mcp', mcp: true, status: 204, answer: 'preflight', requestHeaders: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }, responseHeaders: { 'access-control-allow-origin': origin, 'access-control-allow-headers': 'content-type, authorization' } }),
      door({ method: 'POST', path: '/mcp', mcp: true, requestHeaders: { origin }, responseHeaders: { 'access-control-allow-origin': origin, 'mcp-session-id': 's1' }, mcpSessionId: 's1', sessionKey: 's1', frameSeqs: [10] }),
    ]);
    expect(step(flow, 'cors')!.colour).toBe('green');
    expect(step(flow, 'cors-expose-session')!.reason).toContain('does not expose it');
  });

  it('reds an upstream that could not be reached', () => {
    const flow = only([door({ method: 'POST', path: '/mcp', mcp: true, status: 502, answer: 'upstream-failed', note: 'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:1)' })]);
    expect(step(flow, 'upstream-unreachable')!.reason).toContain('ECONNREFUSED');
  });

  it('reds a token the server refuses after it was issued', () => {
    const story = goodOAuthStory().slice(0, 7);
    story[6] = door({ id: 7, method: 'POST', path: '/mcp', mcp: true, status: 401, requestHeaders: { authorization: 'Bearer [redacted] (47 chars)' }, responseHeaders: { 'www-authenticate': 'Bearer error="invalid_token", error_description="audience mismatch"' } });
    expect(step(only(story), 'token-rejected')!.reason).toContain('invalid_token (audience mismatch)');
  });
});

describe('a host that churns through sessions', () => {
  /** ChatGPT's way, `calls` times: a server/discover probe the legacy server refuses, then a session of its own per call. */
  function churningChat(calls: number, conversationKey = 'c7', offset = 0): DoorRecord[] {
    const chatgpt = { requestHeaders: { 'user-agent': 'openai-mcp/1.0.0' }, userAgent: 'openai-mcp/1.0.0', mcp: true as const, method: 'POST', path: '/mcp' };
    const records: DoorRecord[] = [];
    for (let i = 0; i < calls; i++) {
      const base = offset + 100 * (i + 1);
      const key = `${conversationKey}-chat-${i}`;
      exchange(String(base), 'server/discover', 'protocol_error', { sessionKey: 'client:openai-mcp', errorMessage: 'Bad Request: Server not initialized', conversation: conversationKey });
      exchange(String(base + 10), 'initialize', 'ok', { sessionKey: key });
      exchange(String(base + 20), 'tools/list', 'ok', { sessionKey: key });
      exchange(String(base + 30), 'tools/call', 'ok', { sessionKey: key });
      sessions.set(key, { sessionKey: key, transport: 'streamable', protocolVersion: '2025-06-18', clientLabel: 'ChatGPT', conversationKey, firstTs: 0, lastTs: 0, counts: {} });
      records.push(
        door({ ...chatgpt, status: 400, sessionKey: 'client:openai-mcp', frameSeqs: [base, base + 1] }),
        door({ ...chatgpt, mcpSessionId: key, sessionKey: key, frameSeqs: [base + 10, base + 11] }),
        door({ ...chatgpt, status: 202, mcpSessionId: key, sessionKey: key, frameSeqs: [base + 15] }),
        door({ ...chatgpt, mcpSessionId: key, sessionKey: key, frameSeqs: [base + 20, base + 21] }),
        door({ ...chatgpt, mcpSessionId: key, sessionKey: key, frameSeqs: [base + 30, base + 31] }),
      );
    }
    return records;
  }

  it('is one client told in four lines, the refused era probe grey until it loops', () => {
    const flow = only(churningChat(10));
    expect(flow).toMatchObject({ clientKey: 'conversation:c7', conversationKey: 'c7', label: 'ChatGPT', sessions: 10, records: 50 });
    expect(checks(flow)).toEqual(['amber:era-probe', 'green:initialize', 'green:tools-list', 'green:mcp-calls']);
    expect(flow.verdict.sentence).toBe('connected (2025-06-18)');
    expect(step(flow, 'era-probe')!.title).toBe('server/discover → HTTP 400 ×10');
    expect(step(flow, 'era-probe')!.reason).toMatch(/10 times and was refused each time \(Bad Request: Server not initialized\)/);
    expect(step(flow, 'initialize')).toMatchObject({ title: 'initialize → 2025-06-18 ×10', exchanges: Array.from({ length: 10 }, (_, i) => String(100 * (i + 1) + 10)) });
    expect(step(flow, 'initialize')!.reason).toContain('10 times: a new session each time');
    expect(step(flow, 'mcp-calls')).toMatchObject({ title: '10 requests', reason: '10 tools/call.' });
    expect(step(flow, 'mcp-calls')!.records).toHaveLength(10);
  });

  it('calls one refused probe normal: the client fell back to initialize', () => {
    const flow = only(churningChat(2));
    expect(checks(flow)).toEqual(['grey:era-probe', 'green:initialize', 'green:tools-list', 'green:mcp-calls']);
    expect(step(flow, 'era-probe')!.reason).toMatch(/falls back to initialize/);
  });

  it('keeps two chats apart when the deriver put them in two conversations', () => {
    const flows = buildConnectionFlows([...churningChat(2, 'c1'), ...churningChat(2, 'c2', 10_000)], facts);
    expect(flows.map((f) => [f.clientKey, f.sessions])).toEqual([['conversation:c1', 2], ['conversation:c2', 2]]);
  });
});
