/**
 * Which widget a tool declares, under either standard, and whether a widget may call a tool.
 *
 * - MCP Apps (`io.modelcontextprotocol/ui`, ext-apps 2.0.4 `McpUiToolMeta`): `_meta.ui.resourceUri`,
 *   or the older flat `_meta["ui/resourceUri"]` (hosts read both; the nested one wins, as in
 *   ext-apps' `getToolUiResourceUri`). `_meta.ui.visibility` defaults to `["model", "app"]`; a tool
 *   without "app" is not callable by the app.
 * - Apps SDK (OpenAI's reference, "Tool descriptor parameters"): `_meta["openai/outputTemplate"]`;
 *   `_meta["openai/widgetAccessible"]` (default false) lets the component call the tool through the
 *   client bridge; `_meta["openai/visibility"]: "private"` hides a tool from the model while
 *   keeping it callable from the widget.
 *
 * Pure: values in, values out. Malformed metadata is reported, never thrown.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';

export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MCP Apps resource MIME type (ext-apps `RESOURCE_MIME_TYPE`). */
export const MCP_APP_MIME = 'text/html;profile=mcp-app';
/** The Apps SDK's original widget MIME type, still accepted by ChatGPT. */
export const SKYBRIDGE_MIME = 'text/html+skybridge';
export const WIDGET_MIME_TYPES: readonly string[] = [MCP_APP_MIME, SKYBRIDGE_MIME];

export const OPENAI_OUTPUT_TEMPLATE = 'openai/outputTemplate';
export const OPENAI_WIDGET_ACCESSIBLE = 'openai/widgetAccessible';
export const OPENAI_VISIBILITY = 'openai/visibility';
export const FLAT_RESOURCE_URI = 'ui/resourceUri';

/** The two ways a widget talks to its host: the MCP Apps postMessage bridge, or `window.openai`. */
export type WidgetBridge = 'mcp-apps' | 'openai';

export interface WidgetDeclaration {
  /** The URI a host renders: MCP Apps' when declared, else the Apps SDK's. */
  uri: string;
  /** `_meta.ui.resourceUri` (or the flat `ui/resourceUri`), when declared. */
  mcpApps?: string;
  /** `_meta["openai/outputTemplate"]`, when declared. */
  appsSdk?: string;
}

/** The widget a tool declares, or undefined when it declares none (or only a non-string URI). */
export function widgetOfTool(tool: JsonObject | undefined): WidgetDeclaration | undefined {
  const meta = tool && isJsonObject(tool._meta) ? tool._meta : undefined;
  if (!meta) return undefined;
  const ui = isJsonObject(meta.ui) ? meta.ui : undefined;
  const nested = stringOf(ui?.resourceUri);
  const flat = stringOf(meta[FLAT_RESOURCE_URI]);
  const mcpApps = nested ?? flat;
  const appsSdk = stringOf(meta[OPENAI_OUTPUT_TEMPLATE]);
  const uri = mcpApps ?? appsSdk;
  if (uri === undefined) return undefined;
  const out: WidgetDeclaration = { uri };
  if (mcpApps !== undefined) out.mcpApps = mcpApps;
  if (appsSdk !== undefined) out.appsSdk = appsSdk;
  return out;
}

/** Who may call the tool, as MCP Apps says: `_meta.ui.visibility`, default both. */
export function mcpAppsVisibility(tool: JsonObject): { model: boolean; app: boolean; declared: boolean } {
  const meta = isJsonObject(tool._meta) ? tool._meta : undefined;
  const ui = meta && isJsonObject(meta.ui) ? meta.ui : undefined;
  const v = ui?.visibility;
  if (!Array.isArray(v)) return { model: true, app: true, declared: false };
  return { model: v.includes('model'), app: v.includes('app'), declared: true };
}

export type CallVerdict = { allowed: true; note?: string } | { allowed: false; reason: string };

/**
 * Would a host let the widget call `name`? `tools` is the server's tool list (undefined when the
 * capture has none: then nothing can be checked and the call is allowed with a note). The rule
 * depends on how the widget asked: the MCP Apps bridge honours `_meta.ui.visibility` (all tools
 * callable by default); `window.openai.callTool` needs `openai/widgetAccessible: true` on the
 * called tool (and a host that reads both standards also honours `ui.visibility`).
 */
export function widgetCallVerdict(name: string, tools: readonly JsonObject[] | undefined, bridge: WidgetBridge): CallVerdict {
  if (tools === undefined) return { allowed: true, note: 'no tools/list in the capture: the tool’s visibility could not be checked' };
  const tool = tools.find((t) => t.name === name);
  if (!tool) return { allowed: false, reason: `“${name}” is not in the server’s tools/list, so a host has no such tool to call.` };
  const visibility = mcpAppsVisibility(tool);
  if (!visibility.app) {
    return { allowed: false, reason: `“${name}” declares _meta.ui.visibility ${JSON.stringify(metaOf(tool).ui && (metaOf(tool).ui as JsonObject).visibility)} without "app": it is for the model only, and a host refuses calls to it from a widget.` };
  }
  if (bridge === 'openai') {
    const accessible = metaOf(tool)[OPENAI_WIDGET_ACCESSIBLE];
    if (accessible !== true) {
      return { allowed: false, reason: `“${name}” does not set _meta["openai/widgetAccessible"]: true, so ChatGPT refuses window.openai.callTool for it (the default is false).` };
    }
  }
  return { allowed: true };
}

function metaOf(tool: JsonObject): JsonObject {
  return isJsonObject(tool._meta) ? tool._meta : {};
}

function stringOf(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
