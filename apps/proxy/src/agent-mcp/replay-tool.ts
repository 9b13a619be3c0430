/**
 * `replay_exchange`: sends a captured client request again, as captured or with new params, and
 * returns the new exchange with its answer. It goes through the running mcpscope's own replay
 * (the dashboard's rules and refusals: only to the upstream mcpscope proxies, ids rewritten,
 * imported sessions refused, expired sessions answered with "use fresh"), so the replay is
 * captured and linked to its original like one made from the dashboard.
 *
 * Where that replay runs is handed in (agent-mcp/index.ts): in-process when the server is the
 * running mcpscope's own `/mcp`, or the running mcpscope's dashboard API for `mcpscope mcp --db`.
 * The tool exists only when the user allowed it (`mcpscope mcp --allow-replay`,
 * `--allow-agent-replay` for the dashboard's `/mcp`): a replay carries the session's real
 * credentials, and a model reading captured traffic could be talked into sending one.
 */
import { z } from 'zod';
import { isJsonObject, type ExchangeSummary, type JsonObject, type ReplayResponse } from '@mcpscope/protocol';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CaptureReader } from '../capture/capture-reader.js';
import { exchangeRow, ExchangeRow } from './views.js';
import { toolError, toolResult } from './tool-result.js';
import { redactedFrames, redactorFor } from './agent-redaction.js';
import { CAPTURED_NOTE } from './captured.js';

export interface AgentReplayRequest {
  exchangeId: string;
  message: JsonObject;
  mode: 'session' | 'fresh';
}

export type AgentReplayOutcome =
  | { ok: true; value: ReplayResponse }
  | { ok: false; error: { code: string; message: string; exchange?: ExchangeSummary; retryWith?: 'fresh' } };

/** Replays a message the way the dashboard's POST /api/replay does. */
export type AgentReplay = (request: AgentReplayRequest, signal: AbortSignal) => Promise<AgentReplayOutcome>;

const ANSWER_CHARS = 20_000;

export function registerReplayTool(server: McpServer, reader: CaptureReader, replay: AgentReplay): void {
  server.registerTool(
    'replay_exchange',
    {
      title: 'Replay a request',
      description:
        'Sends a captured client request to the MCP server again, through mcpscope, and returns what came back. Leave params out to resend it as captured, or give params to send the same method with new params (e.g. fixed tool arguments: {"name": "search", "arguments": {...}}); message replaces the whole JSON-RPC message instead. mode "session" sends it in the captured session (with its session id and credentials); "fresh" first opens a new session as the captured client. The replay is captured like any traffic and linked to the original (replayOf). Secrets were redacted at capture: a request that needs one fails the same way until the server accepts it without. ' + CAPTURED_NOTE,
      inputSchema: {
        exchangeId: z.string().min(1).describe('The captured exchange to replay (a client request).'),
        params: z.record(z.string(), z.unknown()).optional().describe('New params for the same method; leave out to resend as captured.'),
        message: z.record(z.string(), z.unknown()).optional().describe('A whole JSON-RPC request or notification to send instead (its id is rewritten).'),
        mode: z.enum(['session', 'fresh']).default('session'),
      },
      outputSchema: {
        exchange: ExchangeRow.describe('The new exchange: replayOf is the original.'),
        mode: z.enum(['session', 'fresh']),
        sentId: z.string().nullable().describe('The JSON-RPC id mcpscope sent (always its own).'),
        answerChars: z.number(),
        warnings: z.array(z.string()),
        captured: z.object({
          sessionKey: z.string(),
          answer: z.string().nullable().describe('The answer frame as received (redacted as in an export), cut at 20,000 characters; null when none came.'),
        }),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async ({ exchangeId, params, message, mode }, extra) => {
      const original = reader.exchange(exchangeId);
      if (!original) return toolError(`No exchange "${exchangeId}" in this capture. Ids come from search_exchanges.`);
      if (params !== undefined && message !== undefined) return toolError('Give params (same method, new params) or message (a whole new message), not both.');
      let toSend: JsonObject;
      if (message !== undefined) toSend = message as JsonObject;
      else {
        const captured = original.requestSeq === undefined ? undefined : capturedMessage(reader, original.requestSeq, original.id);
        if (!captured) return toolError(`Exchange ${exchangeId} has no captured request to resend (it is ${original.kind === 'request' ? 'an answer without its request' : `a ${original.kind}`}); pass message to send one.`);
        toSend = params === undefined ? captured : { ...captured, params: params as JsonObject };
      }
      const outcome = await replay({ exchangeId, message: toSend, mode }, extra.signal);
      if (!outcome.ok) {
        const { code, message: why, retryWith, exchange } = outcome.error;
        const hint = retryWith === 'fresh' ? ' Try again with mode "fresh".' : '';
        const captured = exchange ? ` The attempt was captured as exchange ${exchange.id} (${exchange.status}).` : '';
        // The reason may quote the upstream's answer: it goes in the captured block.
        return toolError(`Replay refused or failed (${code}).${hint}${captured}`, undefined, { reason: redactorFor(reader, exchange ? [exchange] : []).text(why) });
      }
      const { value } = outcome;
      const redactor = redactorFor(reader, [value.exchange]);
      const answer = value.exchange.responseSeq === undefined ? undefined : redactedFrames(reader, redactor, [value.exchange.responseSeq])[0];
      const out = {
        exchange: exchangeRow(value.exchange, redactor),
        mode: value.mode,
        sentId: value.sentId === undefined ? null : String(value.sentId),
        answerChars: answer?.raw.length ?? 0,
        warnings: value.warnings ?? [],
        captured: { sessionKey: value.sessionKey, answer: answer ? answer.raw.slice(0, ANSWER_CHARS) : null },
      };
      return toolResult(out, (o) => `Replayed as exchange ${o.exchange.id} (${o.exchange.status}, replays ${exchangeId})${o.captured.answer === null ? ', no answer frame' : ''}.${o.warnings.length ? ` ${o.warnings.length} warning(s).` : ''}`);
    },
  );
}

/** The request as captured; for an item of a batch (id "12.3"), that item. */
function capturedMessage(reader: CaptureReader, seq: number, exchangeId: string): JsonObject | undefined {
  const raw = reader.frameRaw(seq)?.raw;
  if (raw === undefined) return undefined;
  try {
    let value = JSON.parse(raw) as unknown;
    const dot = exchangeId.indexOf('.');
    if (Array.isArray(value) && dot !== -1) value = value[Number(exchangeId.slice(dot + 1))];
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
