// What the sidebar and the header say about a conversation, and how choosing one maps onto the filter.
import { describe, expect, it } from 'vitest';
import type { ConversationSummary, SessionSummary } from '@mcpscope/protocol';
import { chosenConversation, churnLine, churns, errorCount, evidenceLabel, listed, sessionsByConversation, shownConversations, startsSession, stepText, weakestEvidence, withConversation } from './conversation-facts.js';

const conv = (over: Partial<ConversationSummary>): ConversationSummary => ({
  key: 'c1',
  host: 'ChatGPT',
  joinedBy: { host: 10 },
  hints: {},
  firstTs: 1000,
  lastTs: 2000,
  counts: { ok: 40, protocol_error: 10, business_error: 1 },
  churn: { sessions: 10, initialize: 10, toolsList: 10, toolsCall: 10, unusedSessions: 0, staleSessionCalls: 0 },
  era: { probes: 0, failedProbes: 0, fallbacks: 0, mismatches: 0, steps: [], recent: [] },
  updatedSeq: 1,
  ...over,
});

describe('conversation facts', () => {
  it('says what joined the sessions, and that a guess is a guess', () => {
    expect(evidenceLabel(conv({}))).toBe('joined by openai/session');
    expect(evidenceLabel(conv({ joinedBy: { 'client-time': 2 } }))).toBe('joined by client and time (a guess)');
    expect(evidenceLabel(conv({ joinedBy: { 'client-time': 1 } }))).toBe('one session');
    expect(evidenceLabel(conv({ joinedBy: { host: 10, 'client-time': 1 } }))).toBe('joined by openai/session ×10, client and time ×1');
    expect(weakestEvidence(conv({ joinedBy: { host: 3, credential: 1 } }))).toBe('credential');
    expect(weakestEvidence(conv({ joinedBy: {} }))).toBeUndefined();
  });

  it('counts failures and churn', () => {
    expect(errorCount(conv({}))).toBe(11);
    expect(churnLine(conv({}))).toBe('10 sessions · 10 initialize · 10 tools/list for 10 tools/call');
    expect(churnLine(conv({ churn: { sessions: 3, initialize: 3, toolsList: 3, toolsCall: 2, unusedSessions: 1, staleSessionCalls: 2 } }))).toBe(
      '3 sessions · 3 initialize · 3 tools/list for 2 tools/call · 1 unused · 2 on a stale session',
    );
    expect(churns(conv({}))).toBe(true);
    expect(churns(conv({ churn: { sessions: 1, initialize: 1, toolsList: 1, toolsCall: 8, unusedSessions: 0, staleSessionCalls: 0 } }))).toBe(false);
  });

  it('maps the choice onto the filter text, keeping the rest of it', () => {
    expect(withConversation('', 'c12')).toBe('conversation:c12');
    expect(withConversation('tool:echo status:err', 'c12')).toBe('conversation:c12 tool:echo status:err');
    expect(withConversation('conversation:c3 tool:echo', 'c12')).toBe('conversation:c12 tool:echo');
    expect(withConversation('conversation:c3 tool:echo', undefined)).toBe('tool:echo');
    expect(chosenConversation('tool:echo conversation:c12')).toBe('c12');
    expect(chosenConversation('"conversation" tool:x')).toBeUndefined();
  });

  it('groups sessions by conversation and lists conversations newest first, empty ones left out', () => {
    const s = (key: string, c: string | undefined, firstTs: number): SessionSummary => ({ sessionKey: key, transport: 'sse', firstTs, lastTs: firstTs, counts: {}, ...(c ? { conversationKey: c } : {}) });
    const grouped = sessionsByConversation([s('b', 'c1', 20), s('a', 'c1', 10), s('x', undefined, 5)]);
    expect(grouped.get('c1')!.map((x) => x.sessionKey)).toEqual(['a', 'b']);
    expect(grouped.get('')!.map((x) => x.sessionKey)).toEqual(['x']);
    expect(listed([conv({ key: 'old', firstTs: 1 }), conv({ key: 'new', firstTs: 9 }), conv({ key: 'empty', joinedBy: {} })]).map((c) => c.key)).toEqual(['new', 'old']);
  });

  it('draws the newest conversations up to a limit, and the chosen one wherever it is', () => {
    const list = listed(Array.from({ length: 10 }, (_, i) => conv({ key: `c${i}`, firstTs: i })));
    const keys = (r: { shown: ConversationSummary[] }) => r.shown.map((c) => c.key);
    expect(keys(shownConversations(list, undefined, 3))).toEqual(['c9', 'c8', 'c7']);
    expect(shownConversations(list, undefined, 3).more).toBe(7);
    expect(keys(shownConversations(list, 'c2', 3))).toEqual(['c9', 'c8', 'c7', 'c2']);
    expect(shownConversations(list, 'c2', 3).more).toBe(6);
    expect(keys(shownConversations(list, 'c8', 3))).toEqual(['c9', 'c8', 'c7']);
    expect(shownConversations(list, 'gone', 20)).toEqual({ shown: list, more: 0 });
  });

  it('marks where a new session starts in a timeline, and words the era steps', () => {
    const sessionOf = (id: string) => ({ 1: 'a', 2: 'a', 3: 'b' })[id as '1'];
    expect([0, 1, 2].map((at) => startsSession(['1', '2', '3'], at, sessionOf))).toEqual([false, false, true]);
    expect(stepText({ kind: 'discover', requested: '2026-07-28', answer: 'HTTP 400 · -32000 x', outcome: 'failed', count: 3, firstTs: 0, lastTs: 0 })).toBe('server/discover 2026-07-28 → HTTP 400 · -32000 x');
  });
});
