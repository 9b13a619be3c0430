/**
 * Checks on the handshake and on behaviour over time: the initialize answer, tool-list changes a
 * host may never pick up, sessions the server forgot, and answers slower than a host waits.
 */
import { requestHeader } from '../../door/door-record.js';
import type { AuditCheck, Finding } from '../audit-types.js';
import { HOST_IDS } from '../audit-types.js';
import { fieldReport, notSeen, outcome, spec } from '../check-kit.js';

const NEEDS_INIT = 'an initialize exchange (a host connecting, or `mcpscope audit --target`)';

const instructions: AuditCheck = {
  id: 'server-instructions',
  title: 'initialize returns instructions',
  group: 'connection',
  hosts: ['chatgpt', 'claude', 'claude-code', 'vscode'],
  help: 'The initialize answer\'s instructions tell the host how to use the server; hosts may add them to the model\'s context (ChatGPT and Claude do). Without them the model has only the tool descriptions to go on.',
  fix: 'Return a few sentences of instructions from initialize: what the server is for and how its tools fit together.',
  needs: NEEDS_INIT,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization'),
  evaluate(context) {
    const init = context.initialize;
    if (!init) return notSeen('no initialize answer in the capture');
    const text = init.result!.instructions;
    if (typeof text === 'string' && text.trim()) return { verdict: 'pass', findings: [], summary: `${text.trim().length} characters of instructions` };
    return outcome([{ verdict: 'warn', message: 'initialize returned no instructions', evidence: { exchangeId: init.id, path: '$.result.instructions' } }], '');
  },
};

const protocolVersion: AuditCheck = {
  id: 'protocol-version',
  title: 'The server speaks the revision each host asks for',
  group: 'connection',
  hosts: ['chatgpt', 'vscode'],
  help: 'A client offers one protocol revision in initialize; a server that does not support it answers with its own, and a client that does not speak that one disconnects. The host profiles list the revision each host sends (with the source).',
  fix: 'Support the revisions the hosts send (the SDKs negotiate down when they know the revision).',
  needs: NEEDS_INIT,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation'),
  evaluate(context) {
    const init = context.initialize;
    if (!init) return notSeen('no initialize answer in the capture');
    const answered = init.result!.protocolVersion;
    const asked = init.params?.protocolVersion;
    const findings: Finding[] = [];
    if (typeof asked === 'string' && typeof answered === 'string' && asked !== answered) findings.push({ verdict: 'warn', message: `the client asked for ${asked} and the server answered ${answered}`, evidence: { exchangeId: init.id, path: '$.result.protocolVersion' } });
    for (const p of context.profiles) {
      const spoken = p.protocolVersions?.value;
      if (!spoken || typeof answered !== 'string') continue;
      // Revisions are dates: a server whose answer is older than what a host sends answers that host with it too.
      const newer = spoken.filter((v) => v > answered);
      if (newer.length === 0) continue;
      findings.push({ verdict: 'warn', message: `${p.name} sends ${newer.join(' or ')} (${p.protocolVersions!.url}); this server answered ${answered}: check the host accepts it`, evidence: { exchangeId: init.id, path: '$.result.protocolVersion' }, hosts: [p.id] });
    }
    return outcome(findings, `negotiated ${String(answered)}`);
  },
};

const listChanged: AuditCheck = {
  id: 'tools-list-changed',
  title: 'Tool-list changes reach the hosts',
  group: 'behaviour',
  hosts: ['chatgpt', 'claude-code'],
  help: 'ChatGPT reads a connector\'s tools when it is added or refreshed and ignores notifications/tools/list_changed; Claude Code receives the notification but does not re-list. A server that changes its tools at run time is then served with the old list: new tools never appear, changed schemas fail.',
  fix: 'Keep the tool list stable per deployment; after a change, refresh the connector in ChatGPT\'s settings (or restart Claude Code).',
  needs: 'the server sending notifications/tools/list_changed',
  source: fieldReport('https://github.com/openai/tunnel-client/issues/42'),
  evaluate(context) {
    const sent = context.evidence.notifications.filter((n) => n.method === 'notifications/tools/list_changed' && n.direction === 's2c');
    if (sent.length === 0) return { verdict: 'pass', findings: [], summary: 'the server never sent tools/list_changed' };
    const findings: Finding[] = [];
    for (const n of sent) {
      const relisted = context.evidence.calls.some((c) => c.method === 'tools/list' && c.sessionKey === n.sessionKey && c.startTs >= n.ts);
      const hosts = context.profiles.filter((p) => p.rereadsToolsOnListChanged?.value === false).map((p) => p.id);
      findings.push({ verdict: 'warn', message: `the server announced a tool-list change${relisted ? ' (this client re-listed)' : ' and the client never re-listed'}; ${hosts.join(' and ')} keep the old list until refreshed`, evidence: { exchangeId: n.id, path: '$.method' }, hosts });
    }
    return outcome(findings, '');
  },
};

const forgotten: AuditCheck = {
  id: 'session-forgotten',
  title: 'The server keeps the sessions it hands out',
  group: 'behaviour',
  hosts: HOST_IDS,
  help: 'A 404 on a request carrying an Mcp-Session-Id means the server no longer knows the session (a restart, another replica, an expiry). The spec has the client start a new session, but several hosts show an error or drop the connector instead.',
  fix: 'Keep sessions across restarts and replicas (a shared store, sticky routing), or run stateless.',
  needs: 'HTTP traffic with Mcp-Session-Id through the tap',
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management'),
  evaluate(context) {
    const withSession = context.evidence.door.filter((r) => r.mcp && requestHeader(r, 'mcp-session-id'));
    if (withSession.length === 0) return notSeen('no request with Mcp-Session-Id through the tap');
    const known = new Set<string>();
    const findings: Finding[] = [];
    for (const r of [...withSession].sort((a, b) => a.id - b.id)) {
      const id = requestHeader(r, 'mcp-session-id')!;
      if (r.status === 404 && known.has(id)) findings.push({ verdict: 'fail', message: `${r.method} ${r.path} got 404 for session ${id.slice(0, 12)}…, which the server had answered before`, evidence: { doorRecordId: r.id, path: 'status' } });
      if (r.status !== undefined && r.status < 300) known.add(id);
    }
    return outcome(findings, `${known.size} sessions kept`);
  },
};

const slow: AuditCheck = {
  id: 'answer-within-timeout',
  title: 'Answers come before each host gives up',
  group: 'behaviour',
  hosts: HOST_IDS,
  help: 'A host stops waiting for a tool call after its own timeout and reports an error, even when the server answers later (the spec has senders set timeouts; none is fixed). No host documents its figure: each profile\'s figure comes from public reports, cited in the finding (ChatGPT and Claude about 60 s, Cursor and VS Code 5 minutes, Claude Code 300 s).',
  fix: 'Answer sooner: return what is ready and let the widget or a follow-up call fetch the rest, or send progress.',
  needs: 'tools/call exchanges',
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts'),
  evaluate(context) {
    const calls = context.toolCalls.filter((c) => c.latencyMs !== undefined);
    if (calls.length === 0) return notSeen('no answered tools/call in the capture');
    const findings: Finding[] = [];
    for (const p of context.profiles) {
      const limit = p.callTimeoutMs;
      if (limit === undefined) continue;
      const source = `${limit.url}${limit.kind === 'field-report' ? ', field report' : ''}`;
      for (const c of calls) if (c.latencyMs! > limit.value) findings.push({ verdict: 'fail', message: `${String(c.params?.name)} took ${Math.round(c.latencyMs! / 1000)} s; ${p.name} gives up after ${limit.value / 1000} s (${source})`, evidence: { exchangeId: c.id, path: '$.result' }, hosts: [p.id] });
    }
    const slowest = Math.max(...calls.map((c) => c.latencyMs!));
    return outcome(findings, `slowest answer ${Math.round(slowest)} ms`);
  },
};

export const SESSION_CHECKS: readonly AuditCheck[] = [instructions, protocolVersion, listChanged, forgotten, slow];
