/**
 * The widget playground's data: what the widget receives (`toolInput`, the result's
 * `structuredContent` and `_meta`), as the user edits it or as another captured call of the same
 * tool had it, and how two results' shapes differ. Pure; the panel and the tab hold the state.
 *
 * Edited data is never what the server sent: whatever shows it says so (EDITED_NOTE), and an export
 * of it carries `mcpscope.edited: true` beside the exchange it was edited from.
 */
import { isJsonObject, type JsonObject, type JsonValue, type WidgetPreview } from '@mcpscope/protocol';

export const EDITED_NOTE = 'edited in the playground — not what the server sent';

/** What the widget is fed: the call's arguments and the two parts of its result a widget reads. */
export interface WidgetData {
  toolInput: JsonObject;
  /** Absent: the result has none. */
  structuredContent?: JsonValue;
  meta?: JsonValue;
}

/** Where the data the widget shows came from. */
export type DataSource = { kind: 'captured'; exchangeId: string } | { kind: 'edited'; from: string };

export function dataOf(call: WidgetPreview['call']): WidgetData {
  const result = call.result;
  return {
    toolInput: call.arguments,
    ...(result && 'structuredContent' in result ? { structuredContent: result.structuredContent! } : {}),
    ...(result && '_meta' in result ? { meta: result._meta! } : {}),
  };
}

/** The call as the widget receives it with `data`: the result's other members (content, isError) kept. */
export function callWith(call: WidgetPreview['call'], data: WidgetData): WidgetPreview['call'] {
  const { structuredContent: _s, _meta: _m, ...rest } = call.result ?? { content: [] };
  const result: JsonObject = { ...rest, ...(data.structuredContent !== undefined ? { structuredContent: data.structuredContent } : {}), ...(data.meta !== undefined ? { _meta: data.meta } : {}) };
  return { ...call, arguments: data.toolInput, result };
}

export interface DataTexts {
  toolInput: string;
  structuredContent: string;
  meta: string;
}

export function textsOf(data: WidgetData): DataTexts {
  const show = (v: JsonValue | undefined) => (v === undefined ? '' : JSON.stringify(v, null, 2));
  return { toolInput: show(data.toolInput), structuredContent: show(data.structuredContent), meta: show(data.meta) };
}

/** The texts parsed back; an empty text is "absent" (not for toolInput, which is `{}`). */
export function parseTexts(texts: DataTexts): { ok: true; data: WidgetData } | { ok: false; field: keyof DataTexts; message: string } {
  const parse = (field: keyof DataTexts): { ok: true; value: JsonValue | undefined } | { ok: false; field: keyof DataTexts; message: string } => {
    const text = texts[field].trim();
    if (text === '') return { ok: true, value: undefined };
    try {
      return { ok: true, value: JSON.parse(text) as JsonValue };
    } catch (err) {
      return { ok: false, field, message: `${field} is not JSON: ${(err as Error).message}` };
    }
  };
  const input = parse('toolInput');
  if (!input.ok) return input;
  if (input.value !== undefined && !isJsonObject(input.value)) return { ok: false, field: 'toolInput', message: 'toolInput must be a JSON object (the arguments of the call).' };
  const structured = parse('structuredContent');
  if (!structured.ok) return structured;
  const meta = parse('meta');
  if (!meta.ok) return meta;
  return { ok: true, data: { toolInput: (input.value as JsonObject | undefined) ?? {}, ...(structured.value !== undefined ? { structuredContent: structured.value } : {}), ...(meta.value !== undefined ? { meta: meta.value } : {}) } };
}

export function sameData(a: WidgetData, b: WidgetData): boolean {
  return JSON.stringify(textsOf(a)) === JSON.stringify(textsOf(b));
}

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const kindOf = (v: unknown): Kind => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as Kind));

/** A value's shape: each path (array items as `[*]`) with its kind, to `depth` levels. */
export function shapeOf(value: unknown, depth = 6): Map<string, Kind> {
  const out = new Map<string, Kind>();
  const stack: Array<{ path: string; value: unknown; level: number }> = [{ path: '$', value, level: 0 }];
  while (stack.length > 0 && out.size < 2000) {
    const { path, value: v, level } = stack.pop()!;
    const kind = kindOf(v);
    const seen = out.get(path);
    out.set(path, seen && seen !== kind ? seen : kind);
    if (level >= depth) continue;
    if (Array.isArray(v)) for (const item of v.slice(0, 50)) stack.push({ path: `${path}[*]`, value: item, level: level + 1 });
    else if (isJsonObject(v as JsonValue)) for (const [k, item] of Object.entries(v as JsonObject)) stack.push({ path: /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, value: item, level: level + 1 });
  }
  return out;
}

export interface ShapeChange {
  path: string;
  change: 'added' | 'removed' | 'retyped';
  before?: Kind;
  after?: Kind;
}

/** How `after`'s shape differs from `before`'s, in path order. */
export function shapeChanges(before: unknown, after: unknown): ShapeChange[] {
  const a = shapeOf(before);
  const b = shapeOf(after);
  const out: ShapeChange[] = [];
  for (const [path, kind] of a) {
    const other = b.get(path);
    if (other === undefined) out.push({ path, change: 'removed', before: kind });
    else if (other !== kind) out.push({ path, change: 'retyped', before: kind, after: other });
  }
  for (const [path, kind] of b) if (!a.has(path)) out.push({ path, change: 'added', after: kind });
  // Under a removed or added member only the member itself is worth saying.
  const top = out.filter((c) => !out.some((o) => o !== c && o.change === c.change && c.change !== 'retyped' && c.path.startsWith(o.path) && /^[.[]/.test(c.path.slice(o.path.length))));
  return top.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** The edited data as a file: marked edited, naming the call it was edited from. */
export function editedExport(exchangeId: string, toolName: string, data: WidgetData): string {
  return `${JSON.stringify({ mcpscope: { edited: true, note: EDITED_NOTE, editedFrom: exchangeId, tool: toolName }, toolInput: data.toolInput, structuredContent: data.structuredContent ?? null, _meta: data.meta ?? null }, null, 2)}\n`;
}
