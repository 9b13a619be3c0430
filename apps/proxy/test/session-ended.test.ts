// A session the client ended (a DELETE the server accepted) reads `ended` where the server hands
// out session summaries: the API's list and a capture file read later. (The replay service's
// fallback and the agent MCP server's session view read the same summaries.) Before, nothing set
// the field: only the dashboard knew, from its own door records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SessionsPage } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { CaptureReader } from '../src/capture/capture-reader.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { apiGet } from './support/api.js';
import { tempDbFile } from './store-helpers.js';

const db = tempDbFile();
let app: Mcpscope;
let endedKey: string;
let liveKey: string;
let stillOpen: Client;

beforeAll(async () => {
  app = await startTestMcpscope({ db });
  const transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl));
  const closing = new Client({ name: 'closing-client', version: '1.0.0' });
  await closing.connect(transport);
  await closing.listTools();
  endedKey = transport.sessionId!;
  await transport.terminateSession();
  await closing.close();
  stillOpen = await connectClient(app.mcpUrl);
  await stillOpen.listTools();
  await settled(app);
  liveKey = app.store.sessions().find((s) => s.sessionKey !== endedKey)!.sessionKey;
});
afterAll(async () => {
  await stillOpen?.close();
  await app?.close();
});

describe('a session the client ended', () => {
  it('reads ended in the API, and only that one', async () => {
    await settled(app);
    const { sessions } = await apiGet<SessionsPage>(app, '/api/sessions');
    expect(sessions.find((s) => s.sessionKey === endedKey)).toMatchObject({ ended: true });
    expect(sessions.find((s) => s.sessionKey === liveKey)?.ended).toBeUndefined();
  });

  it('stays ended in the capture file read later', async () => {
    const reader = CaptureReader.openFile(db);
    try {
      expect(reader.session(endedKey)?.ended).toBe(true);
      expect(reader.session(liveKey)?.ended).toBeUndefined();
    } finally {
      reader.close();
    }
  });
});
