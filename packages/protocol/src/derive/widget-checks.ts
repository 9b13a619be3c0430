/**
 * The widget lints (../widget/widget-lints.ts) where the deriver sees their subject: each tool of
 * a tools/list answer, the result of a call to a tool that declares a widget (known from the
 * session's own tools/list), and a resources/read answer for a `ui://` URI (the scheme MCP Apps
 * requires and the one OpenAI's examples use for their templates).
 */
import { isJsonObject, type JsonObject } from '../model/json-rpc.js';
import { widgetOfTool } from '../widget/widget-declaration.js';
import { toolWidgetFindings, widgetResourceFindings, widgetResultFindings } from '../widget/widget-lints.js';
import { joinPath } from '../model/json-path.js';
import type { Finding, ItemContext } from './item-context.js';

export function widgetFindings(ctx: ItemContext, toolOf: (name: string) => JsonObject | undefined): Finding[] {
  const { item, request } = ctx;
  if (item.kind !== 'response' || !request) return [];
  if (request.method === 'tools/list' && Array.isArray(item.result.tools)) {
    return item.result.tools.flatMap((tool, i) => (isJsonObject(tool) ? toolWidgetFindings(tool, joinPath(ctx.base, `$.result.tools[${i}]`)) : []));
  }
  if (request.method === 'tools/call' && request.target !== undefined && item.result.resultType !== 'input_required') {
    const tool = toolOf(request.target);
    return tool && widgetOfTool(tool) ? widgetResultFindings(request.target, item.result, ctx.base) : [];
  }
  if (request.method === 'resources/read' && request.target !== undefined && request.target.startsWith('ui://')) {
    return widgetResourceFindings(request.target, item.result, ctx.base);
  }
  return [];
}
