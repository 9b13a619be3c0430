/**
 * Lints for the mistakes that make a widget render blank or behave differently in ChatGPT and
 * in other MCP Apps hosts: a wrong MIME type, a result without structuredContent, `_meta` so big a
 * host may drop it, a widget URI no resource ever answered, and the two standards' metadata
 * disagreeing when a server declares both. Each finding says what a host does and how to fix it.
 *
 * The deriver runs the per-message ones on live traffic (tools/list, tools/call and
 * resources/read answers); the widget preview runs them too, across sessions, since ChatGPT
 * lists tools, reads the widget and calls the tool in different sessions.
 */
import type { Finding } from '../derive/item-context.js';
import { joinPath } from '../model/json-path.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';
import { utf8Length } from '../model/utf8.js';
import { FLAT_RESOURCE_URI, MCP_APP_MIME, OPENAI_OUTPUT_TEMPLATE, OPENAI_VISIBILITY, SKYBRIDGE_MIME, WIDGET_MIME_TYPES, widgetOfTool } from './widget-declaration.js';
import { OPENAI_WIDGET_CSP, OPENAI_WIDGET_DOMAIN, OPENAI_WIDGET_PREFERS_BORDER, widgetContent } from './widget-resource.js';

/**
 * Above this, a result's `_meta` is flagged. No host documents a limit; this is mcpscope's line
 * for "large enough to be worth knowing about": ChatGPT is reported to drop result `_meta` from
 * `ui/notifications/tool-result` altogether (OpenAI community threads, 2026; UNVERIFIED), and a
 * widget that depends on a big `_meta` is the first to render blank when a host trims it.
 */
export const LARGE_META_BYTES = 64 * 1024;

/** Findings about one tool of a tools/list answer (`base` is the tool's path). */
export function toolWidgetFindings(tool: JsonObject, base: string): Finding[] {
  const meta = isJsonObject(tool._meta) ? tool._meta : undefined;
  if (!meta) return [];
  const name = typeof tool.name === 'string' ? tool.name : '(unnamed)';
  const ui = isJsonObject(meta.ui) ? meta.ui : undefined;
  const out = visibilityAgrees(name, meta, ui, base);
  const widget = widgetOfTool(tool);
  if (!widget) return out;
  const nested = typeof ui?.resourceUri === 'string' ? ui.resourceUri : undefined;
  const flat = typeof meta[FLAT_RESOURCE_URI] === 'string' ? (meta[FLAT_RESOURCE_URI] as string) : undefined;
  if (nested !== undefined && flat !== undefined && nested !== flat) {
    out.push({ code: 'widget-uri-disagrees', severity: 'warning', path: joinPath(base, '$._meta'), message: `${name} names two MCP Apps widgets: _meta.ui.resourceUri "${nested}" and the older _meta["ui/resourceUri"] "${flat}". Hosts use the nested one; drop the flat key or make them equal.` });
  }
  if (widget.mcpApps !== undefined && widget.appsSdk !== undefined && widget.mcpApps !== widget.appsSdk) {
    out.push({ code: 'widget-uri-disagrees', severity: 'warning', path: joinPath(base, `$._meta["${OPENAI_OUTPUT_TEMPLATE}"]`), message: `${name} declares a different widget per standard: _meta.ui.resourceUri "${widget.mcpApps}" (MCP Apps hosts render it) but openai/outputTemplate "${widget.appsSdk}". ChatGPT and other hosts then show different widgets; use one URI for both.` });
  }
  if (widget.mcpApps !== undefined && !widget.mcpApps.startsWith('ui://')) {
    out.push({ code: 'widget-uri-scheme', severity: 'warning', path: joinPath(base, '$._meta.ui.resourceUri'), message: `${name}'s MCP Apps widget URI "${widget.mcpApps}" is not a ui:// URI; MCP Apps hosts (ext-apps getToolUiResourceUri) reject it and render no widget.` });
  }
  return out;
}

/** Both standards declare who sees the tool, and disagree about the model. */
function visibilityAgrees(name: string, meta: JsonObject, ui: JsonObject | undefined, base: string): Finding[] {
  const visibility = Array.isArray(ui?.visibility) ? ui.visibility : undefined;
  const openai = meta[OPENAI_VISIBILITY];
  if (!visibility || (openai !== 'private' && openai !== 'public')) return [];
  const mcpHides = !visibility.includes('model');
  if (mcpHides === (openai === 'private')) return [];
  return [
    {
      code: 'widget-visibility-disagrees',
      severity: 'warning',
      path: joinPath(base, `$._meta["${OPENAI_VISIBILITY}"]`),
      message: `${name} is ${mcpHides ? 'hidden from' : 'shown to'} the model in MCP Apps hosts (_meta.ui.visibility ${JSON.stringify(visibility)}) but ${mcpHides ? 'shown to' : 'hidden from'} ChatGPT's model (openai/visibility "${openai}"). Make the two say the same.`,
    },
  ];
}

/** Findings about a successful tools/call result of a tool that declares a widget. */
export function widgetResultFindings(toolName: string, result: JsonObject, base: string): Finding[] {
  if (result.isError === true) return [];
  const out: Finding[] = [];
  if (!('structuredContent' in result)) {
    out.push({ code: 'widget-result-without-structured-content', severity: 'warning', path: joinPath(base, '$.result'), message: `${toolName} declares a widget, but this result has no structuredContent. The widget renders from structuredContent (window.openai.toolOutput, the MCP Apps tool-result), so it shows nothing; the model reads content, the widget reads structuredContent.` });
  }
  const meta = result._meta;
  if (meta !== undefined) {
    const bytes = utf8Length(JSON.stringify(meta));
    if (bytes > LARGE_META_BYTES) {
      out.push({ code: 'widget-result-meta-large', severity: 'warning', path: joinPath(base, '$.result._meta'), message: `${toolName}'s result carries ${Math.round(bytes / 1024)} KiB of _meta (widget-only data). Hosts may drop or trim it (ChatGPT is reported to leave result _meta out of the MCP Apps tool-result), and the widget then renders without it; keep _meta small and what the widget needs in structuredContent.` });
    }
  }
  return out;
}

/** Findings about a resources/read answer for a widget URI (`base` is the message's path). */
export function widgetResourceFindings(uri: string, result: JsonObject, base: string): Finding[] {
  const content = widgetContent(result, uri);
  if (!content) {
    return [{ code: 'widget-resource-empty', severity: 'error', path: joinPath(base, '$.result.contents'), message: `The widget resource ${uri} came back with no contents; a host has no HTML to render.` }];
  }
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const at = joinPath(base, `$.result.contents[${Math.max(0, contents.indexOf(content))}]`);
  const out: Finding[] = [];
  const mime = content.mimeType;
  if (typeof mime !== 'string' || !WIDGET_MIME_TYPES.includes(mime.replace(/\s+/g, '').toLowerCase())) {
    out.push({ code: 'widget-mime-wrong', severity: 'error', path: `${at}.mimeType`, message: `The widget ${uri} is served as ${typeof mime === 'string' ? `"${mime}"` : 'no MIME type'}; hosts render a widget only as "${MCP_APP_MIME}" (MCP Apps) or "${SKYBRIDGE_MIME}" (Apps SDK), so this one renders blank.` });
  }
  if (typeof content.text !== 'string' && typeof content.blob !== 'string') {
    out.push({ code: 'widget-resource-empty', severity: 'error', path: at, message: `The widget ${uri} has neither text nor blob: there is no HTML to render.` });
  }
  const meta = isJsonObject(content._meta) ? content._meta : undefined;
  if (meta) out.push(...standardsAgree(meta, `${at}._meta`));
  return out;
}

/** The capture-wide lint: a tool's widget that no resources/list or resources/read produced. */
export function widgetNeverReadFinding(toolName: string, uri: string): Finding {
  return { code: 'widget-uri-never-read', severity: 'warning', message: `${toolName} declares the widget ${uri}, but no resources/list or resources/read in this capture ever produced it. A host reads it with resources/read; check that the server registers a resource with exactly this URI.` };
}

/** Where a resource's `_meta.ui` and its `openai/*` keys say different things. */
function standardsAgree(meta: JsonObject, base: string): Finding[] {
  const ui = isJsonObject(meta.ui) ? meta.ui : undefined;
  const out: Finding[] = [];
  const ocsp = isJsonObject(meta[OPENAI_WIDGET_CSP]) ? (meta[OPENAI_WIDGET_CSP] as JsonObject) : undefined;
  const ucsp = ui && isJsonObject(ui.csp) ? ui.csp : undefined;
  if (ucsp && ocsp) {
    const pairs: [string, string][] = [['connectDomains', 'connect_domains'], ['resourceDomains', 'resource_domains'], ['frameDomains', 'frame_domains']];
    const diffs = pairs.flatMap(([mcp, oai]) => {
      const a = listOf(ucsp[mcp]);
      const b = listOf(ocsp[oai]);
      const onlyA = a.filter((d) => !b.includes(d));
      const onlyB = b.filter((d) => !a.includes(d));
      if (onlyA.length === 0 && onlyB.length === 0) return [];
      return [`${mcp}/${oai}: ${onlyA.length ? `only ui.csp has ${onlyA.join(', ')}` : ''}${onlyA.length && onlyB.length ? '; ' : ''}${onlyB.length ? `only openai/widgetCSP has ${onlyB.join(', ')}` : ''}`];
    });
    if (diffs.length > 0) {
      out.push({ code: 'widget-csp-disagrees', severity: 'warning', path: `${base}.ui.csp`, message: `The widget's CSP differs between the standards (${diffs.join(' | ')}). A host reading one of them blocks what only the other allows; declare the same domains in both.` });
    }
  }
  const odomain = meta[OPENAI_WIDGET_DOMAIN];
  if (ui && typeof ui.domain === 'string' && typeof odomain === 'string' && ui.domain !== odomain) {
    out.push({ code: 'widget-domain-disagrees', severity: 'warning', path: `${base}.ui.domain`, message: `The widget asks for origin "${ui.domain}" (ui.domain) and "${odomain}" (openai/widgetDomain); the two standards' hosts will serve it from different origins.` });
  }
  const oborder = meta[OPENAI_WIDGET_PREFERS_BORDER];
  if (ui && typeof ui.prefersBorder === 'boolean' && typeof oborder === 'boolean' && ui.prefersBorder !== oborder) {
    out.push({ code: 'widget-border-disagrees', severity: 'info', path: `${base}.ui.prefersBorder`, message: `ui.prefersBorder is ${ui.prefersBorder} but openai/widgetPrefersBorder is ${oborder}; hosts of each standard draw the widget differently.` });
  }
  return out;
}

function listOf(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((d): d is string => typeof d === 'string') : [];
}
