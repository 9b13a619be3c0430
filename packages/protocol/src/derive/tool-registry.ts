/**
 * Per-session knowledge of the server's tools, from the latest tools/list, and the checks it
 * enables: calls to tools that are not listed ("phantom tools": the client's cached list is
 * stale), arguments against inputSchema, structuredContent against outputSchema, and a tool whose
 * result changes shape between calls.
 */
import type { CompileResult, ValidatorPort } from '../diagnostics/validator-port.js';
import { copyJson } from '../model/json-copy.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';
import { joinPath } from '../model/json-path.js';
import { leftNewestQuarter } from '../model/lru-order.js';
import { type Finding } from './item-context.js';
import { flattenedArguments } from './lints.js';

/** Sessions whose tool lists are kept (least recently used dropped first). */
export const MAX_SESSIONS = 1024;

interface ToolEntry {
  tool: JsonObject;
  input?: CompileResult;
  output?: CompileResult;
}

interface SessionTools {
  /** Undefined until the session's first tools/list result. */
  tools?: Map<string, ToolEntry>;
  /** Signature of each tool's last successful result, to notice shape changes. */
  shapes: Map<string, string>;
  /** Tools whose schema was already reported as skipped. */
  skipped: Set<string>;
  /** When it last moved to the end of the LRU order (see `used`); not part of the snapshot. */
  epoch: number;
}

/** The registry's state as plain JSON, for CaptureDeriver snapshots. Compiled schemas are left out: they are compiled again on first use, to the same result. */
export type ToolRegistryState = [
  sessionKey: string,
  tools: [name: string, tool: JsonObject][] | null,
  shapes: [tool: string, shape: string][],
  skipped: string[],
][];

export class ToolRegistry {
  private readonly sessions = new Map<string, SessionTools>();
  /** Sessions added or moved to the end of `sessions` so far: each one's `epoch` is its place. */
  private insertions = 0;

  constructor(private readonly validator: ValidatorPort | undefined) {}

  snapshot(): ToolRegistryState {
    return [...this.sessions].map(([key, s]) => [
      key,
      s.tools ? [...s.tools].map(([name, entry]) => [name, copyJson(entry.tool)]) : null,
      [...s.shapes],
      [...s.skipped],
    ]);
  }

  static restore(state: ToolRegistryState, validator: ValidatorPort | undefined): ToolRegistry {
    const r = new ToolRegistry(validator);
    for (const [key, tools, shapes, skipped] of state) {
      const s: SessionTools = { shapes: new Map(shapes), skipped: new Set(skipped), epoch: ++r.insertions };
      if (tools) s.tools = new Map(tools.map(([name, tool]) => [name, { tool: copyJson(tool) }]));
      r.sessions.set(key, s);
    }
    return r;
  }

  /** Records a tools/list result: the first page replaces the list, later pages (with cursor) extend it. */
  onToolsList(sessionKey: string, requestParams: JsonObject | undefined, result: JsonObject): void {
    if (!Array.isArray(result.tools)) return;
    const s = this.ensure(sessionKey);
    if (typeof requestParams?.cursor !== 'string' || !s.tools) s.tools = new Map();
    for (const tool of result.tools) {
      if (isJsonObject(tool) && typeof tool.name === 'string') s.tools.set(tool.name, { tool });
    }
  }

  /** The tool as the session's latest tools/list described it, when the registry holds that list. */
  tool(sessionKey: string, name: string): JsonObject | undefined {
    return this.sessions.get(sessionKey)?.tools?.get(name)?.tool;
  }

  /**
   * Checks a tools/call request against the latest tool list: the session's own, else (a host
   * that opens a new session per call and lists in another) that of `conversationSession`, the
   * session of the same conversation that listed last.
   */
  checkCall(sessionKey: string, base: string, params: JsonObject | undefined, conversationSession?: string, staleListFix = 'list tools again after notifications/tools/list_changed.'): Finding[] {
    let s = this.used(sessionKey);
    let borrowed: string | undefined;
    if (!s?.tools && conversationSession !== undefined) {
      const other = this.sessions.get(conversationSession);
      if (other?.tools) {
        borrowed = conversationSession;
        // Shapes and skipped schemas stay the calling session's own.
        s = { tools: other.tools, shapes: s?.shapes ?? new Map(), skipped: s?.skipped ?? other.skipped, epoch: s?.epoch ?? other.epoch };
      }
    }
    const name = params?.name;
    if (!s?.tools || typeof name !== 'string') return [];
    // A host that spreads a chat over sessions may have listed in one this capture could not tie
    // to the conversation: a tool any session's latest list holds is not a phantom.
    const entry = s.tools.get(name) ?? this.listedElsewhere(name);
    if (!entry) {
      const where = borrowed === undefined ? "the server's latest tools/list" : `the latest tools/list of this conversation (session ${borrowed})`;
      return [{ code: 'phantom-tool', severity: 'warning', path: joinPath(base, '$.params.name'), message: `The client called "${name}", which is not in ${where}. The client's cached tool list is stale (or the name is made up): ${staleListFix}` }];
    }
    if (!isJsonObject(entry.tool.inputSchema) || !this.validator) return [];
    entry.input ??= this.validator.compileToolSchema(entry.tool.inputSchema);
    // Arguments put beside name are reported where they are (tool-arguments-flattened), not as missing.
    if (params!.arguments === undefined && flattenedArguments(params!).length > 0) return [];
    const args = params!.arguments ?? {};
    return this.run(s, name, 'inputSchema', entry.input, args, joinPath(base, '$.params.arguments'), 'tool-arguments-invalid', `The arguments do not match ${name}'s inputSchema`);
  }

  /**
   * Checks a tools/call result: structuredContent against outputSchema, and shape drift against
   * the tool's last result in `shapeScope` (the session, or the conversation a host spreads over
   * a session per call).
   */
  checkResult(sessionKey: string, base: string, toolName: string | undefined, result: JsonObject, shapeScope = sessionKey): Finding[] {
    if (!toolName || result.isError === true) return [];
    const s = this.ensure(sessionKey);
    const shapes = shapeScope === sessionKey ? s.shapes : this.ensure(shapeScope).shapes;
    const out: Finding[] = [];
    const shape = shapeOf(result);
    const before = shapes.get(toolName);
    shapes.set(toolName, shape);
    if (before !== undefined && before !== shape) {
      out.push({ code: 'tool-result-shape-changed', severity: 'info', path: joinPath(base, '$.result'), message: `${toolName} returned a differently shaped result than last time (${before} → ${shape}). Clients that parse it may break; keep a tool's result shape stable or declare an outputSchema.` });
    }
    const entry = s.tools?.get(toolName);
    if (!entry || !isJsonObject(entry.tool.outputSchema) || !this.validator) return out;
    if (!('structuredContent' in result)) {
      out.push({ code: 'structured-content-missing', severity: 'error', path: joinPath(base, '$.result'), message: `${toolName} declares an outputSchema, so a successful result must carry structuredContent matching it. The SDK client rejects this result.` });
      return out;
    }
    entry.output ??= this.validator.compileToolSchema(entry.tool.outputSchema);
    out.push(...this.run(s, toolName, 'outputSchema', entry.output, result.structuredContent!, joinPath(base, '$.result.structuredContent'), 'structured-content-invalid', `structuredContent does not match ${toolName}'s outputSchema`));
    return out;
  }

  private run(s: SessionTools, tool: string, which: string, compiled: CompileResult, value: JsonValue, base: string, code: string, what: string): Finding[] {
    if (!compiled.ok) {
      const key = `${tool}/${which}`;
      if (s.skipped.has(key)) return [];
      s.skipped.add(key);
      return [{ code: 'tool-schema-skipped', severity: 'info', path: base, message: `${tool}'s ${which} was not checked: ${compiled.detail}.` }];
    }
    return compiled.check(value).map((issue) => ({ code, severity: 'error' as const, path: base + issue.path, message: `${what}: ${base + issue.path} ${issue.message}` }));
  }

  /** The tool as the most recently used session whose latest list holds it described it. */
  private listedElsewhere(name: string): ToolEntry | undefined {
    let found: ToolEntry | undefined;
    for (const s of this.sessions.values()) found = s.tools?.get(name) ?? found;
    return found;
  }

  private ensure(sessionKey: string): SessionTools {
    return this.used(sessionKey) ?? this.add(sessionKey);
  }

  /** The session's tools, marked as recently used (Map order is the LRU order: model/lru-order.ts). */
  private used(sessionKey: string): SessionTools | undefined {
    const s = this.sessions.get(sessionKey);
    if (s && leftNewestQuarter(s.epoch, this.insertions, MAX_SESSIONS)) {
      this.sessions.delete(sessionKey);
      this.sessions.set(sessionKey, s);
      s.epoch = ++this.insertions;
    }
    return s;
  }

  private add(sessionKey: string): SessionTools {
    const s: SessionTools = { shapes: new Map(), skipped: new Set(), epoch: ++this.insertions };
    this.sessions.set(sessionKey, s);
    // Every session keeps its own copy of the server's tool list; a capture left on for days sees
    // thousands of sessions (ChatGPT opens new ones freely). The least recently used go first: a
    // call in a session whose list was dropped is simply not checked, never flagged.
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return s;
  }
}

/** A short signature of a result's shape: its fields, content block types and structuredContent keys. */
function shapeOf(result: JsonObject): string {
  const fields = Object.keys(result).filter((k) => k !== '_meta' && k !== 'resultType').sort();
  const blocks = Array.isArray(result.content) ? [...new Set(result.content.map((b) => (isJsonObject(b) ? String(b.type) : typeof b)))].sort() : [];
  const sc = result.structuredContent;
  const structured = sc === undefined ? '' : isJsonObject(sc) ? `{${Object.keys(sc).sort().join(',')}}` : Array.isArray(sc) ? '[…]' : typeof sc;
  return `${fields.join(',')}; content: ${blocks.join(',') || 'none'}${structured ? `; structured: ${structured}` : ''}`;
}
