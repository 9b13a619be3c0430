/**
 * A widget resource as a host reads it from `resources/read`: the HTML, its MIME type, and the
 * sandbox it asks for — CSP domains, permissions, its own origin, a border — from either standard:
 *
 * - MCP Apps (ext-apps 2.0.4 `McpUiResourceMeta`): `_meta.ui.{csp{connectDomains, resourceDomains,
 *   frameDomains, baseUriDomains}, permissions{camera, microphone, geolocation, clipboardWrite},
 *   domain, prefersBorder}`, read from the content item, with the `resources/list` entry as the
 *   fallback (as the spec tells hosts to).
 * - Apps SDK (OpenAI's reference, "Resource _meta"): `_meta["openai/widgetCSP"]` in snake_case
 *   (`connect_domains`, `resource_domains`, `frame_domains`, `redirect_domains`),
 *   `openai/widgetDomain`, `openai/widgetPrefersBorder`, `openai/widgetDescription`.
 *
 * When a resource declares both, the union of the two CSPs is what a host reading either would
 * allow; the lints (widget-lints.ts) say where they disagree.
 */
import { decodeBase64Utf8 } from '../model/base64.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';

export const OPENAI_WIDGET_CSP = 'openai/widgetCSP';
export const OPENAI_WIDGET_DOMAIN = 'openai/widgetDomain';
export const OPENAI_WIDGET_PREFERS_BORDER = 'openai/widgetPrefersBorder';

/** The CSP a widget declares, normalised to MCP Apps' names. */
export interface WidgetCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
  /** Which standard(s) declared it: the names a finding should use. */
  declaredBy: ('mcp-apps' | 'apps-sdk')[];
}

export interface WidgetPermissions {
  camera?: boolean;
  microphone?: boolean;
  geolocation?: boolean;
  clipboardWrite?: boolean;
}

export interface WidgetResource {
  uri: string;
  mimeType?: string;
  /** The HTML (`text`, or `blob` decoded as UTF-8 base64); undefined when the content has neither. */
  html?: string;
  csp: WidgetCsp;
  permissions: WidgetPermissions;
  domain?: string;
  prefersBorder?: boolean;
  /** The `_meta` the sandbox was read from (the content item's, else the listed resource's). */
  meta: JsonObject;
}

/** The content item for `uri` in a `resources/read` result (the first when none names it). */
export function widgetContent(result: JsonObject, uri: string): JsonObject | undefined {
  const contents = Array.isArray(result.contents) ? result.contents.filter(isJsonObject) : [];
  return contents.find((c) => c.uri === uri) ?? contents[0];
}

/**
 * The widget resource from a `resources/read` result; `listed` is the `resources/list` entry for
 * the same URI when the capture has one (its `_meta` is the fallback).
 */
export function widgetResourceOf(result: JsonObject, uri: string, listed?: JsonObject): WidgetResource | undefined {
  const content = widgetContent(result, uri);
  if (!content) return undefined;
  const contentMeta = isJsonObject(content._meta) ? content._meta : undefined;
  const listedMeta = listed && isJsonObject(listed._meta) ? listed._meta : undefined;
  const meta = contentMeta ?? listedMeta ?? {};
  // Each standard's block is read from the first place that declares it.
  const ui = pick(contentMeta, listedMeta, (m) => (isJsonObject(m.ui) ? m.ui : undefined));
  const openaiCsp = pick(contentMeta, listedMeta, (m) => (isJsonObject(m[OPENAI_WIDGET_CSP]) ? (m[OPENAI_WIDGET_CSP] as JsonObject) : undefined));
  const csp = mergeCsp(ui && isJsonObject(ui.csp) ? ui.csp : undefined, openaiCsp);
  const out: WidgetResource = { uri: typeof content.uri === 'string' ? content.uri : uri, csp, permissions: permissionsOf(ui?.permissions), meta };
  const mime = typeof content.mimeType === 'string' ? content.mimeType : typeof listed?.mimeType === 'string' ? listed.mimeType : undefined;
  if (mime !== undefined) out.mimeType = mime;
  const html = htmlOf(content);
  if (html !== undefined) out.html = html;
  const domain = stringOf(ui?.domain) ?? stringOf(pick(contentMeta, listedMeta, (m) => m[OPENAI_WIDGET_DOMAIN]));
  if (domain !== undefined) out.domain = domain;
  const border = typeof ui?.prefersBorder === 'boolean' ? ui.prefersBorder : pick(contentMeta, listedMeta, (m) => (typeof m[OPENAI_WIDGET_PREFERS_BORDER] === 'boolean' ? (m[OPENAI_WIDGET_PREFERS_BORDER] as boolean) : undefined));
  if (border !== undefined) out.prefersBorder = border;
  return out;
}

/** MCP Apps' camelCase CSP and the Apps SDK's snake_case one, as one (their union). */
export function mergeCsp(mcpApps: JsonObject | undefined, appsSdk: JsonObject | undefined): WidgetCsp {
  const csp: WidgetCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [], declaredBy: [] };
  if (mcpApps) {
    csp.declaredBy.push('mcp-apps');
    add(csp.connectDomains, mcpApps.connectDomains);
    add(csp.resourceDomains, mcpApps.resourceDomains);
    add(csp.frameDomains, mcpApps.frameDomains);
    add(csp.baseUriDomains, mcpApps.baseUriDomains);
  }
  if (appsSdk) {
    csp.declaredBy.push('apps-sdk');
    add(csp.connectDomains, appsSdk.connect_domains);
    add(csp.resourceDomains, appsSdk.resource_domains);
    add(csp.frameDomains, appsSdk.frame_domains);
  }
  return csp;
}

/** The MCP Apps CSP as the wire carries it (for `ui/notifications/sandbox-resource-ready`). */
export function wireCsp(csp: WidgetCsp): { connectDomains: string[]; resourceDomains: string[]; frameDomains: string[]; baseUriDomains: string[] } {
  return { connectDomains: csp.connectDomains, resourceDomains: csp.resourceDomains, frameDomains: csp.frameDomains, baseUriDomains: csp.baseUriDomains };
}

function permissionsOf(v: JsonValue | undefined): WidgetPermissions {
  const out: WidgetPermissions = {};
  if (!isJsonObject(v)) return out;
  for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) {
    // ext-apps declares each as an empty object; a `true` is read the same way.
    if (isJsonObject(v[key]) || v[key] === true) out[key] = true;
  }
  return out;
}

function htmlOf(content: JsonObject): string | undefined {
  if (typeof content.text === 'string') return content.text;
  return typeof content.blob === 'string' ? decodeBase64Utf8(content.blob) : undefined;
}

function pick<T>(first: JsonObject | undefined, second: JsonObject | undefined, read: (m: JsonObject) => T | undefined): T | undefined {
  return (first ? read(first) : undefined) ?? (second ? read(second) : undefined);
}

function add(into: string[], v: JsonValue | undefined): void {
  if (!Array.isArray(v)) return;
  for (const d of v) if (typeof d === 'string' && d.length > 0 && !into.includes(d)) into.push(d);
}

function stringOf(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
