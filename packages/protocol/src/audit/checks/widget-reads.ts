/**
 * The widgets the server's tools declare, each with the latest resources/read of its URI (when
 * the capture has one): the evidence every widget check starts from.
 */
import { isJsonObject, type JsonObject } from '../../model/json-rpc.js';
import { widgetOfTool, type WidgetDeclaration } from '../../widget/widget-declaration.js';
import { widgetContent } from '../../widget/widget-resource.js';
import type { AuditCall, AuditContextLike, ListedTool } from '../audit-types.js';

export interface WidgetRead {
  uri: string;
  /** The tools that declare it. */
  tools: ListedTool[];
  declaration: WidgetDeclaration;
  /** The latest resources/read of the URI, answered or not. */
  read?: AuditCall;
  /** Its content item and that item's index in `contents`. */
  content?: JsonObject;
  contentPath?: string;
}

export function widgetReads(context: AuditContextLike): WidgetRead[] {
  const byUri = new Map<string, WidgetRead>();
  for (const t of context.tools) {
    const declaration = widgetOfTool(t.tool);
    if (!declaration) continue;
    const entry = byUri.get(declaration.uri) ?? { uri: declaration.uri, tools: [], declaration };
    entry.tools.push(t);
    byUri.set(declaration.uri, entry);
  }
  const reads = context.evidence.calls.filter((c) => c.method === 'resources/read');
  for (const entry of byUri.values()) {
    const read = reads.filter((c) => c.params?.uri === entry.uri).pop();
    if (!read) continue;
    entry.read = read;
    if (!read.result) continue;
    const content = widgetContent(read.result, entry.uri);
    if (!content) continue;
    entry.content = content;
    const contents = Array.isArray(read.result.contents) ? read.result.contents : [];
    entry.contentPath = `$.result.contents[${Math.max(0, contents.indexOf(content))}]`;
  }
  return [...byUri.values()];
}

export function contentMeta(read: WidgetRead): JsonObject | undefined {
  return read.content && isJsonObject(read.content._meta) ? read.content._meta : undefined;
}
