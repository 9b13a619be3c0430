/** Distinct values seen in the capture, for autocomplete: methods, tools, sessions, clients. */
import type { ConversationSummary, SessionSummary } from '@mcpscope/protocol';
import type { ExchangeIndex } from '../store/exchange-index.js';
import type { CapturedValues } from './suggest.js';

const SCAN_LIMIT = 200_000;

export function capturedValues(index: ExchangeIndex, sessions: ReadonlyMap<string, SessionSummary>, conversations: ReadonlyMap<string, ConversationSummary> = new Map()): CapturedValues {
  const methods = new Set<string>();
  const tools = new Set<string>();
  const ids = index.ids;
  // Newest first: what the user just saw is what they most likely want to filter on.
  for (let i = ids.length - 1, n = 0; i >= 0 && n < SCAN_LIMIT; i--, n++) {
    const ex = index.get(ids[i]!)!;
    if (ex.method) methods.add(ex.method);
    if (ex.method === 'tools/call' && ex.target) tools.add(ex.target);
  }
  const clients = new Set<string>();
  for (const s of sessions.values()) if (s.clientLabel) clients.add(s.clientLabel);
  // The newest conversations first: the one just watched is the likely pick.
  const conversation = [...conversations.values()].sort((a, b) => b.firstTs - a.firstTs).map((c) => c.key);
  // The sessions held: every one, or in a capture whose sessions are read by windows the newest
  // and those on screen (store/session-windows.ts); the newest first either way.
  const session = [...sessions.values()].sort((a, b) => b.firstTs - a.firstTs).map((s) => s.sessionKey);
  return { method: [...methods].sort(), tool: [...tools].sort(), session, client: [...clients], conversation };
}
