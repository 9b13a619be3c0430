// mcpscope's own session (the Drive panel's) has its event stream open before it tells the
// server `notifications/initialized`: an official-SDK server that asks `roots/list` the moment
// it sees `initialized` sends the ask on that stream, and drops it when no stream is open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReplayInput } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { api, apiGet } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startSdkServer, type SdkServer } from './support/sdk-server.js';

/** The roots each session's server learned from its client. */
const learned: string[][] = [];

function rootsAtInitialized(): McpServer {
  const server = new McpServer({ name: 'roots-at-initialized', version: '1.0.0' });
  server.server.oninitialized = () => {
    void server.server.listRoots().then(
      (r) => learned.push(r.roots.map((root) => root.uri)),
      () => {},
    );
  };
  return server;
}

describe('a server that asks roots/list as soon as the session is initialized', () => {
  let upstream: SdkServer;
  let app: Mcpscope;
  beforeAll(async () => {
    upstream = await startSdkServer(rootsAtInitialized);
    app = await startTestMcpscope({ target: upstream.url });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('reaches the user, and the server gets the roots the user answers', async () => {
    const own = await api<{ sessionKey: string }>(app, '/api/drive/own', {});
    expect(own.status).toBe(200);
    let ask: ReplayInput | undefined;
    while (!ask) {
      const { inputs } = await apiGet<{ inputs: ReplayInput[] }>(app, '/api/replay/inputs');
      ask = inputs.find((i) => i.method === 'roots/list' && i.sessionKey === own.body.sessionKey);
      if (!ask) await new Promise((r) => setTimeout(r, 10));
    }
    const answered = await api(app, `/api/replay/inputs/${ask.key}`, { action: 'answer', result: { roots: [{ uri: 'file:///work/project', name: 'project' }] } });
    expect(answered.status).toBe(204);
    while (learned.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(learned).toEqual([['file:///work/project']]);
  });
});
