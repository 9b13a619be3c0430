/**
 * What a widget preview reads from the capture: the call (its arguments and result exactly as the
 * frames hold them), the tool's definition from a tools/list answer, the widget resource from a
 * resources/read answer, and the resources/list entry that may carry the resource's `_meta`.
 *
 * ChatGPT lists tools, reads the widget template and calls the tool in different sessions, so
 * every lookup prefers the call's own session, then the call's conversation (the sessions one
 * chat went through), then the rest of the capture; within each, the newest answer before the
 * call, else the oldest after it. Frames are read whole (a widget may be megabytes; the detail
 * API cuts bodies at 1 MiB).
 *
 * Every lookup stays on the call's side of the import line: a call imported from a file reads only
 * sessions imported from that same file, and a live call never reads an imported session (a file's
 * tool list or HTML must never run against, or for, the live server). The line is drawn in SQL on
 * the session key's prefix with substr, so a file name's `%` or `_` is never a LIKE wildcard.
 */
import { classifyText, IMPORTED_SESSION_PREFIX, importedFilePrefix, isJsonObject, type ExchangeSummary, type JsonObject, type JsonValue } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { sortKey } from '../capture/capture-store.js';
import { keyOfStored, storedKeyIs } from '../capture/session-keys.js';

/** How many candidate answers a lookup parses before giving up. */
const CANDIDATES = 50;

export interface CallParts {
  exchange: ExchangeSummary;
  name: string;
  arguments: JsonObject;
  result?: JsonObject;
  error?: { code: number; message: string; data?: JsonValue };
}

export interface Found<T> {
  value: T;
  exchange: ExchangeSummary;
}

export class WidgetCatalog {
  constructor(private readonly store: CaptureReader) {}

  exchange(id: string): ExchangeSummary | undefined {
    return this.store.exchange(id);
  }

  /** The tools/call as recorded; undefined when the exchange is not a client's tools/call. */
  call(id: string): CallParts | undefined {
    const exchange = this.store.exchange(id);
    if (!exchange || exchange.method !== 'tools/call' || exchange.requestSeq === undefined) return undefined;
    const request = this.message(exchange.requestSeq);
    if (request?.kind !== 'request' || !isJsonObject(request.params) || typeof request.params.name !== 'string') return undefined;
    const args = request.params.arguments;
    const parts: CallParts = { exchange, name: request.params.name, arguments: isJsonObject(args) ? args : {} };
    const answer = exchange.responseSeq === undefined ? undefined : this.message(exchange.responseSeq);
    if (answer?.kind === 'response') parts.result = answer.result;
    if (answer?.kind === 'error') parts.error = answer.error;
    return parts;
  }

  /** The answer of a finished exchange (for a call the widget made). */
  answer(exchange: ExchangeSummary): { result?: JsonObject; error?: { code: number; message: string; data?: JsonValue } } {
    const answer = exchange.responseSeq === undefined ? undefined : this.message(exchange.responseSeq);
    if (answer?.kind === 'response') return { result: answer.result };
    if (answer?.kind === 'error') return { error: answer.error };
    return {};
  }

  /** The tools/list answer that lists `name`, and every tool it lists. */
  toolsFor(call: ExchangeSummary, name: string): Found<{ tool: JsonObject; tools: JsonObject[] }> | undefined {
    for (const ex of this.candidates('tools/list', undefined, call)) {
      const tools = this.result(ex)?.tools;
      if (!Array.isArray(tools)) continue;
      const all = tools.filter(isJsonObject);
      const tool = all.find((t) => t.name === name);
      if (tool) return { value: { tool, tools: all }, exchange: ex };
    }
    return undefined;
  }

  /** The newest usable resources/read answer for `uri` (same session, then same conversation, first). */
  resourceRead(uri: string, call: ExchangeSummary): Found<JsonObject> | undefined {
    for (const ex of this.candidates('resources/read', uri, call)) {
      const result = this.result(ex);
      if (result && Array.isArray(result.contents) && result.contents.length > 0) return { value: result, exchange: ex };
    }
    return undefined;
  }

  /**
   * The resources/read exchange `id` when it read `uri` successfully on the call's side of the
   * import line (the playground's "live server" source names the read it made).
   */
  resourceReadById(id: string, uri: string, call: ExchangeSummary): Found<JsonObject> | undefined {
    const ex = this.store.exchange(id);
    if (!ex || ex.method !== 'resources/read' || ex.target !== uri || ex.status !== 'ok') return undefined;
    const side = sideOf(call);
    if (this.store.stmt(`SELECT 1 FROM exchanges WHERE id = ? AND ${side.sql}`).get(id, ...side.params) === undefined) return undefined;
    const result = this.result(ex);
    return result && Array.isArray(result.contents) && result.contents.length > 0 ? { value: result, exchange: ex } : undefined;
  }

  /** Other client calls of the tool `name` on the call's side of the import line, newest first. */
  otherCalls(name: string, call: ExchangeSummary, limit: number): CallParts[] {
    const side = sideOf(call);
    const rows = this.store
      .stmt(`SELECT id FROM exchanges WHERE method = 'tools/call' AND target = ? AND requester = 'client' AND id <> ? AND ${side.sql} ORDER BY sort_key DESC LIMIT ?`)
      .all(name, call.id, ...side.params, limit * 4) as { id: string }[];
    const out: CallParts[] = [];
    for (const { id } of rows) {
      const parts = this.call(id);
      // What mcpscope sent (replays, a widget's own calls) is not a captured result of the tool.
      if (!parts || parts.exchange.replayOf !== undefined || parts.exchange.widgetOf !== undefined) continue;
      out.push(parts);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The resources/list entry for `uri`, when any answer lists it. */
  listedResource(uri: string, call: ExchangeSummary): JsonObject | undefined {
    for (const ex of this.candidates('resources/list', undefined, call)) {
      const resources = this.result(ex)?.resources;
      const entry = Array.isArray(resources) ? resources.find((r) => isJsonObject(r) && r.uri === uri) : undefined;
      if (isJsonObject(entry)) return entry;
    }
    return undefined;
  }

  /** Whether anything on the call's side of the import line ever asked for `uri` (any outcome). */
  everRead(uri: string, call: ExchangeSummary): boolean {
    const side = sideOf(call);
    return this.store.stmt(`SELECT 1 FROM exchanges WHERE method = 'resources/read' AND target = ? AND ${side.sql} LIMIT 1`).get(uri, ...side.params) !== undefined;
  }

  /** Whether two exchanges belong to one conversation (one session is one conversation). */
  sameConversation(a: ExchangeSummary, b: ExchangeSummary): boolean {
    if (a.sessionKey === b.sessionKey) return true;
    const conversation = this.conversationOf(a);
    return conversation !== undefined && conversation === this.conversationOf(b);
  }

  private candidates(method: string, target: string | undefined, call: ExchangeSummary): ExchangeSummary[] {
    const key = sortKey(call.id);
    const side = sideOf(call);
    // An exchange of a session is in its session's conversation; a session-less one has its own.
    // With no conversation for the call, `= NULL` ranks every row alike.
    const same = storedKeyIs('e.session_key', call.sessionKey);
    const rows = this.store
      .stmt(
        `SELECT summary FROM exchanges e WHERE method = ? AND status = 'ok'${target === undefined ? '' : ' AND target = ?'} AND ${side.sql}
         ORDER BY (${same.sql}) DESC,
           (COALESCE(conversation_key, (SELECT s.conversation_key FROM sessions s WHERE s.session_key = ${keyOfStored('e.session_key')})) = ?) DESC,
           (sort_key <= ?) DESC, CASE WHEN sort_key <= ? THEN -sort_key ELSE sort_key END LIMIT ${CANDIDATES}`,
      )
      .all(...(target === undefined ? [method] : [method, target]), ...side.params, ...same.params, this.conversationOf(call) ?? null, key, key) as { summary: string }[];
    return rows.map((r) => this.store.summary(r.summary));
  }

  private conversationOf(call: ExchangeSummary): string | undefined {
    if (call.conversation) return call.conversation;
    const row = this.store.stmt('SELECT conversation_key AS key FROM sessions WHERE session_key = ?').get(call.sessionKey) as { key: string | null } | undefined;
    return row?.key ?? undefined;
  }

  private result(ex: ExchangeSummary): JsonObject | undefined {
    const answer = ex.responseSeq === undefined ? undefined : this.message(ex.responseSeq);
    return answer?.kind === 'response' ? answer.result : undefined;
  }

  private message(seq: number) {
    const frame = this.store.frameRaw(seq);
    if (!frame) return undefined;
    const message = classifyText(frame.raw);
    return message.kind === 'batch' ? undefined : message;
  }
}

/**
 * The SQL condition (on `session_key`) for the sessions a lookup for `call` may read. SQLite's
 * substr counts characters (code points), hence the prefix's length in code points.
 */
function sideOf(call: ExchangeSummary): { sql: string; params: (string | number)[] } {
  const file = importedFilePrefix(call.sessionKey);
  const prefix = file ?? IMPORTED_SESSION_PREFIX;
  return { sql: `substr(COALESCE(${keyOfStored('session_key')}, ''), 1, ?) ${file !== undefined ? '=' : '<>'} ?`, params: [[...prefix].length, prefix] };
}
