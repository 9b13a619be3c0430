/**
 * The widget preview of a captured tools/call: what a host would render (the tool's widget, the
 * call's arguments and result as recorded, the resource and the sandbox it asks for), the lints a
 * host's behaviour makes worth knowing, and the two things the preview sends upstream:
 *
 * - reading the widget resource when the capture has no resources/read of it, and
 * - the tool calls the widget makes, refused first when a host would refuse them.
 *
 * Both go through `upstream` (replay's machinery, handed in by compose/): captured like any
 * traffic, linked to the call whose widget they serve, in one fresh session per call labelled
 * "widget preview" (or in the call's own session, when the user chooses it).
 *
 * The playground picks the HTML: a resources/read it names (`resource`, one the preview read
 * now), else a local file the user named for the widget (widget-files.ts), else the capture's.
 *
 * Two rules hold here, on the server, whatever the dashboard shows:
 * - a call imported from a file is inert: its preview renders from that file alone and nothing is
 *   ever sent for it (`imported_session`);
 * - a widget's tool call is sent only once the user allowed that widget to call that tool on this
 *   server (WidgetConsents, granted by the dashboard's consent route); until then
 *   `widget_consent_needed`.
 */
import {
  importedFileName,
  isImportedSession,
  MCP_APP_MIME,
  MCP_APPS_EXTENSION,
  SKYBRIDGE_MIME,
  isJsonObject,
  toolWidgetFindings,
  widgetCallVerdict,
  widgetNeverReadFinding,
  widgetOfTool,
  widgetResourceFindings,
  widgetResourceOf,
  widgetResultFindings,
  type ExchangeSummary,
  type JsonObject,
  type WidgetBridge,
  type WidgetCallResponse,
  type WidgetCapturedResult,
  type WidgetFileState,
  type WidgetConsent,
  type WidgetDeclaration,
  type WidgetLint,
  type WidgetPreview,
  type WidgetResourceView,
} from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import type { CallParts, WidgetCatalog } from './widget-catalog.js';
import { WidgetConsents } from './widget-consents.js';
import type { WidgetFiles } from './widget-files.js';

export const WIDGET_PREVIEW_LABEL = 'widget preview';
/** How long a side request may take before the preview gives up on it (ChatGPT is reported to wait about 60 s for a tool). */
export const SIDE_REQUEST_TIMEOUT_MS = 60_000;

/** What the preview needs from replay (compose/ passes replay's BehalfChannels). */
export interface WidgetUpstream {
  send(
    message: JsonObject,
    on: { sessionKey: string; mode: 'fresh' | 'session'; linkTo: string; linkMode: string; channelKey?: string; label?: string; extraCapabilities?: JsonObject },
    signal: AbortSignal,
  ): Promise<{ ok: true; value: { exchange: ExchangeSummary; sessionKey: string } } | { ok: false; error: { code: string; message: string; exchange?: ExchangeSummary } }>;
}

export interface WidgetServiceDeps {
  catalog: WidgetCatalog;
  /** Absent where nothing can be sent (`mcpscope open`). */
  upstream?: WidgetUpstream;
  /** The link mode a widget's side requests are stored with (capture's WIDGET_LINK). */
  linkMode: string;
  /** The live server `upstream` reaches (a URL, or `stdio: CMD`), as the consent prompt names it. */
  server?: string;
  /** Local files standing in for widget resources (the playground, `--widget-file`). */
  files?: WidgetFiles;
}

/** How many other captured calls of a tool the playground is offered. */
export const OTHER_RESULTS = 20;

export interface WidgetCallInput {
  bridge: WidgetBridge;
  name: string;
  arguments: JsonObject;
  mode: 'fresh' | 'session';
}

export class WidgetService {
  /** The user's allows, for this run. */
  private readonly consents = new WidgetConsents();

  constructor(private readonly deps: WidgetServiceDeps) {}

  /** Whether the call's tool declares a widget, without reading the resource. */
  declaration(exchangeId: string): { toolName: string; declaration?: WidgetDeclaration } {
    const call = this.callOf(exchangeId);
    const widget = widgetOfTool(this.deps.catalog.toolsFor(call.exchange, call.name)?.value.tool);
    return { toolName: call.name, ...(widget ? { declaration: widget } : {}) };
  }

  /** `resource`: take the HTML from that resources/read of the widget (one made by `readNow`). */
  preview(exchangeId: string, options: { resource?: string } = {}): WidgetPreview {
    const { catalog } = this.deps;
    const call = this.callOf(exchangeId);
    const listed = catalog.toolsFor(call.exchange, call.name);
    const widget = widgetOfTool(listed?.value.tool);
    if (!listed || !widget) {
      throw new InspectorError('not_a_widget', listed ? `${call.name} declares no widget (neither _meta.ui.resourceUri nor openai/outputTemplate).` : `No tools/list in the capture lists ${call.name}, so its widget is unknown.`);
    }
    const preview: WidgetPreview = {
      exchangeId,
      toolName: call.name,
      declaration: widget,
      tool: listed.value.tool,
      toolsListId: listed.exchange.id,
      call: { status: call.exchange.status, arguments: call.arguments },
      lints: toolWidgetFindings(listed.value.tool, '$').map((f) => ({ ...f, exchangeId: listed.exchange.id })),
      canCall: false,
    };
    const cannotSend = this.cannotSend(call);
    if (cannotSend) preview.cannotCallReason = cannotSend.message;
    else {
      const server = this.serverName();
      Object.assign(preview, { canCall: true, server, allowedTools: this.consents.toolsAllowed(server, widget.uri) });
    }
    if (call.result) {
      preview.call.result = call.result;
      preview.lints.push(...widgetResultFindings(call.name, call.result, '$').map((f) => ({ ...f, exchangeId })));
    }
    if (call.error) preview.call.error = call.error;
    const named = options.resource === undefined ? undefined : catalog.resourceReadById(options.resource, widget.uri, call.exchange);
    if (options.resource !== undefined && !named) throw new InspectorError('not_found', `Exchange ${options.resource} is not a successful resources/read of ${widget.uri} this call's preview may use.`);
    const read = named ?? catalog.resourceRead(widget.uri, call.exchange);
    const listedResource = catalog.listedResource(widget.uri, call.exchange);
    const file = named ? undefined : this.deps.files?.for(widget.uri);
    if (!read && !file) {
      if (!catalog.everRead(widget.uri, call.exchange) && !listedResource) preview.lints.push({ ...widgetNeverReadFinding(call.name, widget.uri), exchangeId: listed.exchange.id });
      return preview;
    }
    if (read) preview.lints.push(...widgetResourceFindings(widget.uri, read.value, '$').map((f): WidgetLint => ({ ...f, exchangeId: read.exchange.id })));
    // A local file replaces the HTML only: the sandbox (CSP, permissions) is what the resource declares.
    const resource = widgetResourceOf(file ? fileRead(widget.uri, file.html, read?.value) : read!.value, widget.uri, listedResource);
    if (!resource?.html) {
      preview.resourceProblem = `The resources/read answer #${read!.exchange.id} for ${widget.uri} holds no HTML (neither text nor blob).`;
      return preview;
    }
    const common = {
      uri: widget.uri,
      html: resource.html,
      bytes: new TextEncoder().encode(resource.html).length,
      csp: resource.csp,
      permissions: resource.permissions,
      ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
      ...(resource.domain !== undefined ? { domain: resource.domain } : {}),
      ...(resource.prefersBorder !== undefined ? { prefersBorder: resource.prefersBorder } : {}),
    };
    if (file) {
      preview.resource = { ...common, source: 'file', file: file.state, sameSession: false, sameConversation: false };
      return preview;
    }
    const importedFrom = importedFileName(read!.exchange.sessionKey);
    const view: WidgetResourceView = {
      ...common,
      exchangeId: read!.exchange.id,
      source: read!.exchange.widgetOf !== undefined ? 'read-now' : importedFrom !== undefined ? 'imported' : 'captured',
      ...(importedFrom !== undefined ? { importedFrom } : {}),
      sameSession: read!.exchange.sessionKey === call.exchange.sessionKey,
      sameConversation: catalog.sameConversation(read!.exchange, call.exchange),
    };
    preview.resource = view;
    return preview;
  }

  /** Other captured calls of the same tool (the playground's "flip to another result"). */
  otherResults(exchangeId: string): WidgetCapturedResult[] {
    const call = this.callOf(exchangeId);
    return this.deps.catalog.otherCalls(call.name, call.exchange, OTHER_RESULTS).map((c) => ({
      exchangeId: c.exchange.id,
      startTs: c.exchange.startTs,
      status: c.exchange.status,
      arguments: c.arguments,
      ...(c.result ? { result: c.result } : {}),
      ...(c.error ? { error: c.error } : {}),
    }));
  }

  /** The user names a local file to stand in for the call's widget resource (read-only, watched). */
  useFile(exchangeId: string, path: string): WidgetFileState {
    const files = this.deps.files;
    if (!files) throw new InspectorError('no_upstream', 'This dashboard serves no local widget files.');
    return files.open(this.widgetUri(this.callOf(exchangeId)), path);
  }

  /** Stops serving a local file for the call's widget; the capture's HTML is used again. */
  stopFile(exchangeId: string): { stopped: boolean } {
    return { stopped: this.deps.files?.stop(this.widgetUri(this.callOf(exchangeId))) ?? false };
  }

  /** Reads the widget resource now (the capture has none), then answers the preview. */
  async readNow(exchangeId: string, signal: AbortSignal): Promise<WidgetPreview> {
    const call = this.callOf(exchangeId);
    this.refuseInert(call);
    const listed = this.deps.catalog.toolsFor(call.exchange, call.name);
    const widget = widgetOfTool(listed?.value.tool);
    if (!widget) throw new InspectorError('not_a_widget', `${call.name} declares no widget.`);
    const sent = await this.send(call, { jsonrpc: '2.0', id: 0, method: 'resources/read', params: { uri: widget.uri } }, 'fresh', signal);
    const answer = this.deps.catalog.answer(sent.exchange);
    if (answer.error) throw new InspectorError('widget_upstream_failed', `The server answered resources/read of ${widget.uri} with error ${answer.error.code}: ${answer.error.message}`);
    return this.preview(exchangeId, { resource: sent.exchange.id });
  }

  /** A tool call the widget made: refused as a host would, else sent and answered. */
  async call(exchangeId: string, input: WidgetCallInput, signal: AbortSignal): Promise<WidgetCallResponse> {
    const call = this.callOf(exchangeId);
    this.refuseInert(call);
    const listed = this.deps.catalog.toolsFor(call.exchange, input.name) ?? this.deps.catalog.toolsFor(call.exchange, call.name);
    const verdict = widgetCallVerdict(input.name, listed?.value.tools, input.bridge);
    if (!verdict.allowed) throw new InspectorError('widget_call_refused', verdict.reason);
    const uri = this.widgetUri(call);
    const server = this.serverName();
    if (!this.consents.allows(server, uri, input.name)) {
      throw new InspectorError('widget_consent_needed', `The widget ${uri} wants to call ${input.name} on ${server}: nothing was sent. Allow it in the dashboard's Widget tab first (a host asks the same before an app's first call of a tool).`);
    }
    const sent = await this.send(call, { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: input.name, arguments: input.arguments } }, input.mode, signal);
    return { exchange: sent.exchange, sessionKey: sent.sessionKey, ...this.deps.catalog.answer(sent.exchange) };
  }

  /** The user allows the call's widget to call `tool` on the live server (the dashboard's consent route). */
  consent(exchangeId: string, tool: string): WidgetConsent {
    const call = this.callOf(exchangeId);
    this.refuseInert(call);
    const uri = this.widgetUri(call);
    const server = this.serverName();
    this.consents.allow(server, uri, tool);
    return { uri, server, allowedTools: this.consents.toolsAllowed(server, uri) };
  }

  /** Why nothing may be sent for `call`: it was imported from a file, or there is no upstream. */
  private cannotSend(call: CallParts): InspectorError | undefined {
    if (isImportedSession(call.exchange.sessionKey)) {
      return new InspectorError('imported_session', `This call was imported from ${importedFileName(call.exchange.sessionKey)}: its widget renders from that file alone and sends nothing to a live server. To try the widget live, make the call again through mcpscope.`);
    }
    if (!this.deps.upstream) return noUpstream();
    return undefined;
  }

  private refuseInert(call: CallParts): void {
    const refusal = this.cannotSend(call);
    if (refusal) throw refusal;
  }

  private serverName(): string {
    return this.deps.server ?? 'the upstream server';
  }

  private widgetUri(call: CallParts): string {
    const widget = widgetOfTool(this.deps.catalog.toolsFor(call.exchange, call.name)?.value.tool);
    if (!widget) throw new InspectorError('not_a_widget', `${call.name} declares no widget.`);
    return widget.uri;
  }

  private callOf(exchangeId: string): CallParts {
    const call = this.deps.catalog.call(exchangeId);
    if (!call) {
      if (!this.deps.catalog.exchange(exchangeId)) throw new InspectorError('not_found', `No exchange "${exchangeId}" (it may have been removed by retention).`);
      throw new InspectorError('not_a_widget', `Exchange ${exchangeId} is not a tools/call a client sent.`);
    }
    return call;
  }

  private async send(call: CallParts, message: JsonObject, mode: 'fresh' | 'session', signal: AbortSignal): Promise<{ exchange: ExchangeSummary; sessionKey: string }> {
    const { upstream } = this.deps;
    const refusal = this.cannotSend(call);
    if (refusal || !upstream) throw refusal ?? noUpstream();
    const on = {
      sessionKey: call.exchange.sessionKey,
      mode,
      linkTo: call.exchange.id,
      linkMode: this.deps.linkMode,
      // One session per captured call's widget: its reads and calls share it, as a host's would.
      channelKey: `widget:${call.exchange.id}`,
      label: WIDGET_PREVIEW_LABEL,
      extraCapabilities: { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME, SKYBRIDGE_MIME] } } },
    };
    const abort = AbortSignal.any([signal, AbortSignal.timeout(SIDE_REQUEST_TIMEOUT_MS)]);
    const result = await upstream.send(message, on, abort);
    if (result.ok) return result.value;
    const where = result.error.exchange ? ` (captured as #${result.error.exchange.id})` : '';
    throw new InspectorError('widget_upstream_failed', `${result.error.message}${where}`);
  }
}

/** A resources/read answer carrying `html` in place of the resource's text, its `_meta` kept. */
function fileRead(uri: string, html: string, read: JsonObject | undefined): JsonObject {
  const contents = Array.isArray(read?.contents) ? read.contents : [];
  const original = contents.find((c) => isJsonObject(c) && c.uri === uri) ?? contents.find(isJsonObject);
  const base = isJsonObject(original) ? original : { uri, mimeType: MCP_APP_MIME };
  const { blob: _blob, ...rest } = base;
  return { contents: [{ ...rest, uri, text: html }] };
}

const noUpstream = () => new InspectorError('no_upstream', 'This dashboard has no upstream server (mcpscope open): a widget preview here cannot send anything.');

/** The body of `POST …/consent`, validated; a message saying what is wrong otherwise. */
export function parseWidgetConsent(body: unknown): { tool: string } | string {
  if (!isJsonObject(body) || typeof body.tool !== 'string' || body.tool === '') return 'Send a JSON object: { tool } (the tool the user allows the widget to call).';
  return { tool: body.tool };
}

/** The body of `POST …/call`, validated; a message saying what is wrong otherwise. */
export function parseWidgetCall(body: unknown): WidgetCallInput | string {
  if (!isJsonObject(body)) return 'Send a JSON object: { bridge, name, arguments?, mode }.';
  const { bridge, name, mode } = body;
  if (bridge !== 'mcp-apps' && bridge !== 'openai') return '"bridge" must be "mcp-apps" or "openai".';
  if (typeof name !== 'string' || name === '') return '"name" must be the tool\'s name.';
  if (body.arguments !== undefined && !isJsonObject(body.arguments)) return '"arguments" must be an object.';
  if (mode !== undefined && mode !== 'fresh' && mode !== 'session') return '"mode" must be "fresh" or "session".';
  return { bridge, name, arguments: isJsonObject(body.arguments) ? body.arguments : {}, mode: mode ?? 'fresh' };
}
