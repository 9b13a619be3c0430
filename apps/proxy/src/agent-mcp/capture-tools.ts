/**
 * The read tools: sessions, a filtered search over exchanges (the dashboard's filter language,
 * evaluated by the same query the API runs), one exchange whole, and more of a frame's body.
 * Everything is read through the capture layer's reader and query; nothing here writes.
 *
 * Mistakes a model makes (a filter that does not parse, an id that does not exist, a cursor from
 * elsewhere) come back as tool errors (`isError: true`) saying what to do, never as protocol
 * errors: the model can read them and try again.
 */
import { z } from 'zod';
import { FILTER_OPERATORS, parseFilter } from '@mcpscope/protocol';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CaptureReader } from '../capture/capture-reader.js';
import type { CaptureQuery } from '../capture/capture-query.js';
import { diagnosticRow, DiagnosticRow, exchangeRow, ExchangeRow, frameRow, FrameRow, sessionRow, SessionRow, conversationRow, ConversationRow } from './views.js';
import { toolError, toolResult } from './tool-result.js';

export interface CaptureToolDeps {
  reader: CaptureReader;
  query: CaptureQuery;
}

const MAX_BODY = 200_000;
const DEFAULT_BODY = 8_000;

/** The filter language, from its registry (the dashboard's help popover reads the same list). */
const FILTER_HELP = FILTER_OPERATORS.map((op) => `  ${op.syntax} — ${op.help} e.g. ${op.example}`).join('\n');

export function registerCaptureTools(server: McpServer, deps: CaptureToolDeps): void {
  const { reader, query } = deps;

  server.registerTool(
    'list_conversations',
    {
      title: 'List conversations',
      description:
        'Lists the host conversations in the capture, newest first. ChatGPT and Claude\'s connector open a new MCP session for almost every tool call; a conversation puts those sessions back together (by the host\'s conversation id, a credential fingerprint, or client and time). Filter search_exchanges by conversation:KEY to read one conversation as a single timeline.',
      inputSchema: { limit: z.number().int().min(1).max(500).default(50).describe('At most this many conversations (default 50).') },
      outputSchema: { conversations: z.array(ConversationRow), total: z.number().describe('Conversations in the capture, listed or not.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit }) => {
      const all = reader.conversations();
      return toolResult({ conversations: all.slice(0, limit).map(conversationRow), total: all.length }, (out) => `${out.total} conversation(s); newest first:\n${out.conversations.map((c) => `- ${c.conversationKey}: ${c.host}, ${c.sessions} session(s), ${Object.entries(c.counts).map(([status, n]) => `${n} ${status}`).join(', ') || 'no exchanges'}`).join('\n')}`);
    },
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        'Lists the MCP sessions in the capture, most recently active first: which client talked to which server, with which protocol revision, and how many exchanges ended in each status. Start here to see what was captured; filter search_exchanges by session:"KEY" to look inside one.',
      inputSchema: { limit: z.number().int().min(1).max(500).default(50).describe('At most this many sessions (default 50).') },
      outputSchema: { sessions: z.array(SessionRow), total: z.number().describe('Sessions in the capture, listed or not.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit }) => {
      const all = reader.sessions();
      return toolResult({ sessions: all.slice(0, limit).map(sessionRow), total: all.length }, (out) => `${out.total} session(s); newest first:\n${out.sessions.map((s) => `- ${s.sessionKey}: ${s.client ?? '?'} → ${s.server ?? '?'} (${s.protocolVersion ?? 'revision unknown'})`).join('\n')}`);
    },
  );

  server.registerTool(
    'search_exchanges',
    {
      title: 'Search exchanges',
      description: `Finds exchanges (a request with its answer, or a lone notification) with mcpscope's filter language, newest first, as summaries without bodies: use get_exchange for the frames. An empty filter lists everything. When nextCursor is not null, pass it back as cursor for older matches (a page can be short, even empty, when a long search stopped early: keep going while nextCursor is set).\n\nFilter language (terms side by side mean AND):\n${FILTER_HELP}\n\nExamples: "method:tools/call status:err" (failed tool calls), "tool:search latency>500ms", "diag:* | status:pending".`,
      inputSchema: {
        filter: z.string().default('').describe('A filter expression; empty for all exchanges.'),
        limit: z.number().int().min(1).max(200).default(20).describe('At most this many exchanges (default 20).'),
        cursor: z.string().optional().describe('nextCursor from the previous page.'),
      },
      outputSchema: {
        exchanges: z.array(ExchangeRow),
        nextCursor: z.string().nullable().describe('Pass as cursor for older matches; null when there are none.'),
        head: z.number().describe('The newest frame number in the capture when searched.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ filter, limit, cursor }) => {
      const parsed = parseFilter(filter);
      if (!parsed.ok) {
        const { message, position, length } = parsed.error;
        const marker = `${filter}\n${' '.repeat(position)}${'^'.repeat(Math.max(1, length))}`;
        return toolError(`The filter does not parse at character ${position + 1}: ${message}\n${marker}`, { position, length });
      }
      const before = cursor === undefined ? undefined : Number(cursor);
      if (before !== undefined && !Number.isFinite(before)) return toolError(`"${cursor}" is not a cursor from search_exchanges: pass nextCursor exactly as it came, or leave cursor out to start from the newest.`);
      const page = query.exchanges(parsed.filter, limit, before);
      const out = { exchanges: page.exchanges.map(exchangeRow), nextCursor: page.nextBefore === undefined ? null : String(page.nextBefore), head: reader.head() };
      return toolResult(out, (o) => `${o.exchanges.length} exchange(s)${o.nextCursor ? ' (more: pass nextCursor)' : ''}:\n${o.exchanges.map(line).join('\n')}`);
    },
  );

  server.registerTool(
    'get_exchange',
    {
      title: 'Get one exchange',
      description:
        'Reads one exchange whole: its summary, every frame that belongs to it in order (the request, progress notifications, the answer, and mcpscope\'s record of a broken connection) with bodies cut at maxBodyChars, the spec findings mcpscope made about it, and its replays. A body cut short says so (truncated, bodyChars); read the rest with get_frame_body.',
      inputSchema: {
        id: z.string().min(1).describe('The exchange id, e.g. "42" or "42.1" (an item of a batch).'),
        maxBodyChars: z.number().int().min(100).max(MAX_BODY).default(DEFAULT_BODY).describe(`Cut each body at this many characters (default ${DEFAULT_BODY}).`),
      },
      outputSchema: {
        exchange: ExchangeRow,
        frames: z.array(FrameRow),
        diagnostics: z.array(DiagnosticRow),
        replays: z.array(z.string()).describe('Ids of the exchanges that replay this one, oldest first.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, maxBodyChars }) => {
      const ex = reader.exchange(id);
      if (!ex) return toolError(`No exchange "${id}" in this capture (retention may have removed it). Ids come from search_exchanges, e.g. "42" or "42.1".`);
      const out = {
        exchange: exchangeRow(ex),
        frames: reader.framesBySeq(ex.frameSeqs, maxBodyChars).map(frameRow),
        diagnostics: reader.diagnosticsFor(ex).map(diagnosticRow),
        replays: reader.replayLinks.replays(ex.id),
      };
      return toolResult(out, (o) => [line(o.exchange), ...o.frames.map((f) => `#${f.seq} ${f.direction} ${f.kind}${f.truncated ? ` (cut at ${maxBodyChars} of ${f.bodyChars} chars)` : ''}: ${f.body}`), ...o.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`)].join('\n'));
    },
  );

  server.registerTool(
    'get_frame_body',
    {
      title: 'Read a frame body',
      description: 'Reads part of one frame\'s body, for bodies get_exchange cut short: from offset (in characters), at most length characters. nextOffset is where the next piece starts, null at the end.',
      inputSchema: {
        seq: z.number().int().min(1).describe('The frame number (frames[].seq in get_exchange).'),
        offset: z.number().int().min(0).default(0),
        length: z.number().int().min(1).max(MAX_BODY).default(50_000),
      },
      outputSchema: { seq: z.number(), offset: z.number(), text: z.string(), totalChars: z.number(), nextOffset: z.number().nullable() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ seq, offset, length }) => {
      const frame = reader.frameRaw(seq);
      if (!frame) return toolError(`No frame #${seq} in this capture (retention may have removed it). Frame numbers come from get_exchange (frames[].seq).`);
      const total = frame.raw.length;
      if (offset > total) return toolError(`Frame #${seq} has ${total} characters; offset ${offset} is past its end.`);
      const end = Math.min(total, offset + length);
      return toolResult({ seq, offset, text: frame.raw.slice(offset, end), totalChars: total, nextOffset: end < total ? end : null }, (o) => o.text);
    },
  );
}

function line(ex: ExchangeRow): string {
  const what = [ex.method ?? '(no method)', ex.target].filter(Boolean).join(' ');
  return `#${ex.id} ${what} → ${ex.status}${ex.errorMessage ? ` (${ex.errorMessage})` : ''}${ex.latencyMs !== null ? ` ${ex.latencyMs} ms` : ''} [session ${ex.sessionKey}]`;
}
