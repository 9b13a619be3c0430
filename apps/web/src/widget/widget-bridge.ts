/**
 * The host side of one widget preview: the official MCP Apps bridge (ext-apps `AppBridge` over its
 * `PostMessageTransport`, made quiet by quiet-transport.ts; loaded only when a widget opens) plus
 * mcpscope's own channel to the sandbox page for `window.openai` and what the widget cannot hide
 * (console errors, uncaught exceptions, blocked loads, its load time).
 *
 * The sandbox runs on the widget's own origin; nothing from it is trusted. It can ask for what a
 * host offers and nothing more: tool calls go to the proxy's widget API (which refuses what a host
 * would refuse, holds a tool's first call until the user allows it here, and captures the rest), messages for the model and links are logged (the preview
 * has no model and opens nothing by itself), display-mode requests are granted as a host would.
 */
import { describeCspViolation, wireCsp, type JsonObject, type WidgetPreview, type WidgetResourceView } from '@mcpscope/protocol';
import type { EventLog } from './event-log.js';
import { grantDisplayMode, hostContext, openAiEnvironment, type DisplayMode, type HostSettings } from './host-settings.js';
import { installMessageGate } from './message-gate.js';
import { ENVELOPE, isEnvelope, type HostToSandbox, type OpenAiGlobals, type SandboxToHost } from './sandbox-protocol.js';
import { ApiError } from '../api/client.js';
import type { WidgetApi } from './widget-api.js';

/** Notifications a second the sandbox passes before it drops (and counts) the rest. */
export const FLOOD_LIMIT = 100;
/** Messages in one second (from anywhere in the widget) past which the preview stops the widget. */
export const RUNAWAY_LIMIT = 3000;
export const INNER_SANDBOX = 'allow-scripts allow-same-origin allow-forms';
/** JSON-RPC's code for a method the receiver does not offer. */
const METHOD_NOT_FOUND = -32601;

export interface BridgeOptions {
  iframe: HTMLIFrameElement;
  preview: WidgetPreview & { resource: WidgetResourceView };
  settings: HostSettings;
  /** Height fullscreen fills. */
  stageHeight(): number;
  api: WidgetApi;
  log: EventLog;
  onSize(height: number): void;
  onDisplayMode(mode: DisplayMode): void;
  onWidgetState(state: unknown): void;
  /** Asks the user (in the dashboard) whether the widget may call `tool` on the live server. */
  askConsent(tool: string): Promise<boolean>;
  /** The preview stopped a runaway widget. */
  onStopped(): void;
  /** What `preview.call` is when it is not the call as captured (edited data, another call's result). */
  dataLabel?: string;
}

export interface WidgetBridgeHandle {
  update(settings: HostSettings): void;
  close(): Promise<void>;
}

/** A fresh origin for every preview: no widget shares storage or frames with another. */
export function sandboxOrigin(port: number): string {
  const label = `w-${crypto.getRandomValues(new Uint32Array(2)).reduce((s, n) => s + n.toString(36), '')}`;
  return `http://${label}.localhost:${port}`;
}

export async function startWidgetBridge(o: BridgeOptions, origin: string): Promise<WidgetBridgeHandle> {
  const [{ AppBridge, buildAllowAttribute }, { QuietPostMessageTransport }] = await Promise.all([import('@modelcontextprotocol/ext-apps/app-bridge'), import('./quiet-transport.js')]);
  const { preview, log } = o;
  const resource = preview.resource;
  let settings = o.settings;
  const frame = () => o.iframe.contentWindow;
  const allow = buildAllowAttribute(resource.permissions);
  if (allow) o.iframe.setAttribute('allow', allow);
  const toolInfo = { tool: preview.tool ?? { name: preview.toolName, inputSchema: { type: 'object' } } };

  const removeGate = installMessageGate({
    origin,
    source: frame,
    onForeign: (foreign) => log.add('flood', `${foreign.toLocaleString()} message(s) posted to the dashboard from outside the sandbox frame in the last second were dropped (a widget speaks to its host through its own frame only).`),
    stopAt: RUNAWAY_LIMIT,
    onRunaway: (seen) => stop(`the widget sent ${seen.toLocaleString()} messages to the dashboard within a second`),
  });
  let stopped = false;
  /** A runaway widget burns the CPU the dashboard needs, whichever way it sends: end it. */
  const stop = (why: string) => {
    if (stopped) return;
    stopped = true;
    // Replacing the sandbox document ends the widget and everything it runs.
    o.iframe.src = 'about:blank';
    log.add('error', `${why}: mcpscope stopped it so the dashboard stays usable (Reload runs it again). A host would stall the same way.`);
    o.onStopped();
  };
  const post = (message: HostToSandbox) => frame()?.postMessage(message, origin);

  const bridge = new AppBridge(
    null,
    { name: 'mcpscope widget preview', version: '1' },
    {
      openLinks: {},
      serverTools: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
      sandbox: { csp: wireCsp(resource.csp), permissions: resource.permissions },
    },
    { hostContext: hostContext(settings, o.stageHeight(), toolInfo) },
  );

  const callTool = async (bridgeName: 'mcp-apps' | 'openai', name: string, args: JsonObject) => {
    log.add('call', `the widget calls ${name} ${JSON.stringify(args)} (${bridgeName === 'openai' ? 'window.openai.callTool' : 'MCP Apps tools/call'})`, { detail: args });
    const request = { bridge: bridgeName, name, arguments: args, mode: settings.sessionMode };
    let answer;
    try {
      answer = await o.api.call(preview.exchangeId, request).catch(async (err: unknown) => {
        if (!(err instanceof ApiError && err.code === 'widget_consent_needed')) throw err;
        log.add('consent', `asking you whether the widget may call ${name} on ${preview.server ?? 'the server'}`);
        if (!(await o.askConsent(name))) throw new ApiError(403, 'widget_call_refused', `you denied ${name} to this widget in the dashboard; nothing was sent (Reload asks again)`);
        await o.api.consent(preview.exchangeId, name);
        log.add('consent', `you allowed the widget to call ${name} on ${preview.server ?? 'the server'} (for this run of mcpscope)`);
        return o.api.call(preview.exchangeId, request);
      });
    } catch (err) {
      const refused = err instanceof ApiError && (err.code === 'widget_call_refused' || err.code === 'imported_session');
      log.add(refused ? 'refused' : 'error', `${refused ? 'refused' : 'failed'}: ${name}: ${(err as Error).message}`);
      throw err;
    }
    log.add('call', `${name} answered ${answer.error ? `with error ${answer.error.code}: ${answer.error.message}` : answer.result?.isError ? 'with isError: true' : 'ok'} (#${answer.exchange.id}, session ${answer.sessionKey})`, {
      exchangeId: answer.exchange.id,
      detail: answer.result ?? answer.error,
      severity: answer.error || answer.result?.isError ? 'warning' : 'info',
    });
    if (answer.error) throw new Error(answer.error.message);
    return answer.result ?? { content: [] };
  };
  const requestMode = (requested: string) => {
    const mode = grantDisplayMode(requested, settings.device);
    log.add('display', `the widget asked for ${requested}; granted ${mode}`);
    o.onDisplayMode(mode);
    return mode;
  };

  let delivered = false;
  bridge.addEventListener('sandboxready', () => {
    if (delivered) return log.add('error', 'the sandbox announced itself again (the widget navigated it?): the widget is not sent twice');
    delivered = true;
    const globals: OpenAiGlobals = {
      ...openAiEnvironment(settings, o.stageHeight()),
      toolInput: preview.call.arguments,
      toolOutput: (preview.call.result?.structuredContent as Record<string, unknown> | undefined) ?? null,
      toolResponseMetadata: (preview.call.result?._meta as Record<string, unknown> | undefined) ?? null,
      widgetState: null,
    };
    post({ mcpscope: ENVELOPE, type: 'init', openai: settings.profile === 'chatgpt', globals, allow, floodLimit: FLOOD_LIMIT });
    log.add('host', `sandbox ready on ${origin}; sending ${resource.uri} (${resource.bytes.toLocaleString()} bytes)`);
    // The HTML goes in mcpscope's own envelope, beside the bridge rather than through
    // `sendSandboxResourceReady`: the sandbox page is mcpscope's on both ends of this leg. The CSP
    // and permissions need not travel: the sandbox page's CSP is its HTTP header, set by the
    // widget listener from the same declaration, and `allow` came with `init`.
    post({ mcpscope: ENVELOPE, type: 'resource', html: resource.html, sandbox: INNER_SANDBOX });

  });
  bridge.addEventListener('initialized', () => {
    const app = bridge.getAppVersion();
    log.add('bridge', `ui/initialize from ${app ? `${app.name} ${app.version}` : 'the widget'}; sending ${o.dataLabel ?? 'the captured arguments and result'}`);
    void bridge.sendToolInput({ arguments: preview.call.arguments });
    if (preview.call.result) void bridge.sendToolResult(preview.call.result as never);
    else if (preview.call.error) void bridge.sendToolCancelled({ reason: `the call failed: ${preview.call.error.message}` });
  });
  bridge.addEventListener('sizechange', (p) => p.height !== undefined && o.onSize(p.height));
  bridge.addEventListener('loggingmessage', (p) => log.add('log', `notifications/message (${p.level}): ${typeof p.data === 'string' ? p.data : JSON.stringify(p.data)}`, { detail: p }));
  bridge.addEventListener('requestteardown', () => log.add('bridge', 'the widget asked to be closed (ui/notifications/request-teardown)'));
  bridge.oncalltool = async (params) => callTool('mcp-apps', params.name, (params.arguments ?? {}) as JsonObject) as never;
  bridge.onmessage = async (params) => {
    log.add('message', `the widget sends the model a message (ui/message): ${textOf(params.content)} — the preview has no model; in ChatGPT this starts a new turn`, { detail: params });
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    log.add('link', `the widget asks to open ${url} (ui/open-link)`, { url });
    return {};
  };
  bridge.onrequestdisplaymode = async ({ mode }) => ({ mode: requestMode(mode) });
  bridge.onupdatemodelcontext = async (params) => {
    log.add('context', 'model context updated (ui/update-model-context)', { detail: params });
    o.onWidgetState(params);
    return {};
  };
  // Everything else a widget may ask (resources/read, prompts/list, ui/download-file, sampling…)
  // this preview does not offer, and its capabilities above say so. A widget that asks anyway
  // gets the JSON-RPC answer any host gives, and the user sees the request rather than a widget
  // that silently stalls.
  bridge.fallbackRequestHandler = async (request) => {
    log.add('refused', `the widget sent ${request.method}, which this preview does not offer (not in the host capabilities it was given): answered "Method not found"`, { detail: request.params ?? {}, severity: 'warning' });
    throw Object.assign(new Error(`Method not found: ${request.method}`), { code: METHOD_NOT_FOUND });
  };

  const fromSandbox = async (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== frame() || !isEnvelope(event.data)) return;
    const m = event.data as SandboxToHost;
    switch (m.type) {
      case 'console':
        return log.add('console', `console.${m.level}: ${m.text}`, { severity: m.level === 'error' ? 'error' : 'warning' });
      case 'uncaught':
        return log.add('error', `uncaught: ${m.text}${m.where ? ` (${m.where})` : ''}`);
      case 'csp':
        return log.add('csp', describeCspViolation(m, resource.csp), { detail: m });
      case 'loaded':
        return log.add('host', `the widget document finished loading in ${m.ms} ms`);
      case 'slow':
        return log.add('host', `the widget document has not finished loading after ${m.ms / 1000} s: a script, stylesheet, image or frame it waits for has not arrived (a host shows a spinner, or nothing)`, { severity: 'warning' });
      case 'flood':
        log.add('flood', `the sandbox dropped ${m.dropped.toLocaleString()} of the widget's ${m.seen.toLocaleString()} messages in the last second (notifications over ${FLOOD_LIMIT}/s)`);
        if (m.seen >= RUNAWAY_LIMIT) stop(`the widget posted ${m.seen.toLocaleString()} messages in a second`);
        return;
      case 'refused':
        return log.add('error', `the sandbox refused to run: ${m.reason}`);
      case 'openai':
        return openAiCall(m);
    }
  };
  const reply = (id: number | undefined, result?: unknown, error?: string) => {
    if (id !== undefined) post({ mcpscope: ENVELOPE, type: 'openai-reply', id, ...(result !== undefined ? { result } : {}), ...(error !== undefined ? { error } : {}) });
  };
  const openAiCall = async (m: Extract<SandboxToHost, { type: 'openai' }>) => {
    const p = (m.payload ?? {}) as Record<string, unknown>;
    try {
      switch (m.op) {
        case 'callTool':
          return reply(m.id, await callTool('openai', String(p.name), (p.args ?? {}) as JsonObject));
        case 'sendFollowUpMessage':
          log.add('message', `window.openai.sendFollowUpMessage: ${JSON.stringify(p.prompt)} — the preview has no model; in ChatGPT this is sent as the user's next message`);
          return reply(m.id, null);
        case 'openExternal':
          return log.add('link', `window.openai.openExternal: ${String(p.href)}`, { url: String(p.href) });
        case 'requestDisplayMode':
          return reply(m.id, { mode: requestMode(String(p.mode)) });
        case 'setWidgetState':
          o.onWidgetState(p.state);
          log.add('state', 'window.openai.setWidgetState', { detail: p.state });
          return reply(m.id, null);
        case 'notifyIntrinsicHeight':
          return typeof p.height === 'number' && o.onSize(p.height);
        case 'requestClose':
          return log.add('bridge', 'window.openai.requestClose: the widget asked to be closed');
      }
    } catch (err) {
      reply(m.id, undefined, (err as Error).message);
    }
  };
  window.addEventListener('message', fromSandbox);

  await bridge.connect(new QuietPostMessageTransport(frame()!, frame()!, origin));
  o.iframe.src = `${origin}/sandbox?host=${encodeURIComponent(location.origin)}&csp=${encodeURIComponent(JSON.stringify(wireCsp(resource.csp)))}`;
  const from = resource.source === 'file' ? `the local file ${resource.file?.path ?? ''} (version ${resource.file?.version ?? 1})` : `resources/read #${resource.exchangeId ?? '?'}${resource.source === 'read-now' ? ' (read now by mcpscope)' : ''}`;
  log.add('host', `${preview.toolName}'s widget ${resource.uri} from ${from}; bridges: MCP Apps${settings.profile === 'chatgpt' ? ' and window.openai' : ''}`);

  return {
    update(next) {
      const before = settings;
      settings = next;
      bridge.setHostContext(hostContext(next, o.stageHeight(), toolInfo));
      const env = openAiEnvironment(next, o.stageHeight());
      const was = openAiEnvironment(before, o.stageHeight());
      const changed = Object.fromEntries(Object.entries(env).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(was[k as keyof typeof was])));
      if (Object.keys(changed).length > 0) {
        post({ mcpscope: ENVELOPE, type: 'globals', globals: changed });
        log.add('host', `host settings: ${Object.keys(changed).map((k) => `${k} ${JSON.stringify((changed as Record<string, unknown>)[k])}`).join(', ')}`);
      }
    },
    async close() {
      window.removeEventListener('message', fromSandbox);
      removeGate();
      // Tell the widget, but stop listening at once: the frame's next document (a new sandbox,
      // on a new origin) must talk to the next bridge only.
      void bridge.teardownResource({}).catch(() => undefined);
      await bridge.close().catch(() => undefined);
    },
  };
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content.map((b) => (b && typeof b === 'object' && 'text' in b ? String((b as { text: unknown }).text) : `[${String((b as { type?: unknown })?.type)}]`)).join(' ');
}
