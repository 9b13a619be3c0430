/**
 * The read tools: sessions, a filtered search over exchanges (the dashboard's filter language,
 * evaluated by the same query the API runs), one exchange whole, and more of a frame's body.
 * Everything is read through the capture layer's reader and query; nothing here writes.
 *
 * Mistakes a model makes (a filter that does not parse, an id that does not exist, a cursor from
 * elsewhere) come back as tool errors (`isError: true`) saying what to do, never as protocol
 * errors: the model can read them and try again.
 *
 * What they return is what an export would hold, redacted, with captured text under `captured`
 * keys (captured.ts); the text summaries say only mcpscope's own facts (ids, statuses, counts).
 */
import { z } from 'zod';
import { FILTER_OPERATORS, exchangeVerdict, parseFilter } from '@mcpscope/protocol';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CaptureReader } from '../capture/capture-reader.js';
import type { CaptureQuery } from '../capture/capture-query.js';
import { diagnosticRow, DiagnosticRow, exchangeRow, ExchangeRow, frameRow, FrameRow, sessionRow, SessionRow, conversationRow, ConversationRow, verdictRow, VerdictRow } from './views.js';
import { toolError, toolResult } from './tool-result.js';
import { plainRedactor, redactedFrames, redactedFrameText, redactorFor } from './agent-redaction.js';
import { CAPTURED_NOTE } from './captured.js';

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
        'Lists the host conversations in the capture, newest first. ChatGPT and Claude\'s connector open a new MCP session for almost every tool call; a conversation puts those sessions back together (by the host\'s conversation id, a credential fingerprint, or client and time). Filter search_exchanges by conversation:KEY to read one conversation as a single timeline. ' + CAPTURED_NOTE,
      inputSchema: { limit: z.number().int().min(1).max(500).default(50).describe('At most this many conversations (default 50).') },
      outputSchema: { conversations: z.array(ConversationRow), total: z.number().describe('Conversations in the capture, listed or not.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit }) => {
      const all = reader.conversations();
      const redactor = plainRedactor();
      return toolResult({ conversations: all.slice(0, limit).map((c) => conversationRow(c, redactor)), total: all.length }, (out) => `${out.total} conversation(s), ${out.conversations.length} listed, newest first.`);
    },
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        'Lists the MCP sessions in the capture, most recently active first: which client talked to which server, with which protocol revision, and how many exchanges ended in each status. Start here to see what was captured; filter search_exchanges by session:"KEY" to look inside one. ' + CAPTURED_NOTE,
      inputSchema: { limit: z.number().int().min(1).max(500).default(50).describe('At most this many sessions (default 50).') },
      outputSchema: { sessions: z.array(SessionRow), total: z.number().describe('Sessions in the capture, listed or not.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit }) => {
      const all = reader.sessions();
      const redactor = plainRedactor();
      return toolResult({ sessions: all.slice(0, limit).map((s) => sessionRow(s, redactor)), total: all.length }, (out) => `${out.total} session(s), ${out.sessions.length} listed, most recently active first.`);
    },
  );

  server.registerTool(
    'search_exchanges',
    {
      title: 'Search exchanges',
      description: `Finds exchanges (a request with its answer, or a lone notification) with mcpscope's filter language, newest first, as summaries without bodies: use get_exchange for the frames. An empty filter lists everything. When nextCursor is not null, pass it back as cursor for older matches (a page can be short, even empty, when a long search stopped early: keep going while nextCursor is set).\n\nFilter language (terms side by side mean AND):\n${FILTER_HELP}\n\nExamples: "method:tools/call status:err" (failed tool calls), "tool:search latency>500ms", "diag:* | status:pending".\n\n${CAPTURED_NOTE}`,
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
      // Each row redacted as its exchange's own export would be.
      const out = { exchanges: page.exchanges.map((ex) => exchangeRow(ex, redactorFor(reader, [ex]))), nextCursor: page.nextBefore === undefined ? null : String(page.nextBefore), head: reader.head() };
      return toolResult(out, (o) => `${o.exchanges.length} exchange(s)${o.nextCursor ? ' (more: pass nextCursor)' : ''}: ${o.exchanges.map((ex) => `#${ex.id} ${ex.status}`).join(', ')}`);
    },
  );

  server.registerTool(
    'get_exchange',
    {
      title: 'Get one exchange',
      description:
        'Reads one exchange whole: its summary, every frame that belongs to it in order (the request, progress notifications, the answer, and mcpscope\'s record of a broken connection) with bodies cut at maxBodyChars, the spec findings mcpscope made about it, its replays, and for an exchange that did not end ok the verdict: whose fault it is (client, server or the connection) and the fix. A body cut short says so (truncated, bodyChars); read the rest with get_frame_body. ' + CAPTURED_NOTE,
      inputSchema: {
        id: z.string().min(1).describe('The exchange id, e.g. "42" or "42.1" (an item of a batch).'),
        maxBodyChars: z.number().int().min(100).max(MAX_BODY).default(DEFAULT_BODY).describe(`Cut each body at this many characters (default ${DEFAULT_BODY}).`),
      },
      outputSchema: {
        exchange: ExchangeRow,
        frames: z.array(FrameRow),
        diagnostics: z.array(DiagnosticRow),
        replays: z.array(z.string()).describe('Ids of the exchanges that replay this one, oldest first.'),
        verdict: VerdictRow.nullable().describe('Null when the exchange ended ok or is still waiting.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, maxBodyChars }) => {
      const ex = reader.exchange(id);
      if (!ex) return toolError(`No exchange "${id}" in this capture (retention may have removed it). Ids come from search_exchanges, e.g. "42" or "42.1".`);
      const redactor = redactorFor(reader, [ex]);
      const frames = redactedFrames(reader, redactor, ex.frameSeqs);
      const diagnostics = reader.diagnosticsFor(ex);
      const verdict = exchangeVerdict({ exchange: ex, diagnostics, http: new Map(frames.map((f) => [f.seq, f.http])) });
      const out = {
        exchange: exchangeRow(ex, redactor),
        frames: frames.map((f) => frameRow(f, maxBodyChars)),
        diagnostics: diagnostics.map((d) => diagnosticRow(d, redactor)),
        replays: reader.replayLinks.replays(ex.id),
        verdict: verdict ? verdictRow(verdict, redactor) : null,
      };
      return toolResult(out, (o) => `Exchange #${o.exchange.id} (${o.exchange.status}): ${o.frames.length} frame(s)${o.frames.some((f) => f.truncated) ? ` (bodies cut at ${maxBodyChars} characters marked truncated)` : ''}, ${o.diagnostics.length} finding(s), ${o.replays.length} replay(s)${o.verdict ? `; verdict: ${o.verdict.title} (fix on the ${o.verdict.fault} side)` : ''}.`);
    },
  );

  server.registerTool(
    'get_frame_body',
    {
      title: 'Read a frame body',
      description: 'Reads part of one frame\'s body (redacted as in an export), for bodies get_exchange cut short: from offset (in characters), at most length characters. nextOffset is where the next piece starts, null at the end. ' + CAPTURED_NOTE,
      inputSchema: {
        seq: z.number().int().min(1).describe('The frame number (frames[].seq in get_exchange).'),
        offset: z.number().int().min(0).default(0),
        length: z.number().int().min(1).max(MAX_BODY).default(50_000),
      },
      outputSchema: { seq: z.number(), offset: z.number(), totalChars: z.number(), nextOffset: z.number().nullable(), captured: z.object({ text: z.string() }) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ seq, offset, length }) => {
      const text = redactedFrameText(reader, seq);
      if (text === undefined) return toolError(`No frame #${seq} in this capture (retention may have removed it). Frame numbers come from get_exchange (frames[].seq).`);
      const total = text.length;
      if (offset > total) return toolError(`Frame #${seq} has ${total} characters; offset ${offset} is past its end.`);
      const end = Math.min(total, offset + length);
      return toolResult({ seq, offset, totalChars: total, nextOffset: end < total ? end : null, captured: { text: text.slice(offset, end) } }, (o) => `Frame #${o.seq}, characters ${o.offset} to ${end} of ${o.totalChars}.`);
    },
  );
}
