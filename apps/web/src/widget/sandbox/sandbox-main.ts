/**
 * mcpscope's sandbox page: the outer iframe of ext-apps' sandbox-proxy pattern, served by the
 * widget listener on the widget's own origin (`http://<random>.localhost:PORT`), never the
 * dashboard's. It announces itself with `ui/notifications/sandbox-proxy-ready`, takes the HTML
 * (once) from `ui/notifications/sandbox-resource-ready` or from mcpscope's `resource` envelope
 * (the dashboard's choice: see widget-bridge.ts), writes it into an inner sandboxed iframe of the
 * same origin — which inherits this page's Content-Security-Policy, the one the resource declared,
 * set as an HTTP header by the listener where no widget can change it — and relays the MCP Apps
 * JSON-RPC both ways.
 *
 * Before the widget's first byte runs it installs what ChatGPT's host provides and what an
 * inspector must see: `window.openai` (openai-shim.ts), and reports of console errors, uncaught
 * exceptions, blocked loads (CSP violations) and the document's load. It also keeps a chatty widget
 * from flooding the host: past `floodLimit` notifications (and reports) a second, the rest are
 * dropped here and counted; requests and responses always pass (dropping one would leave the
 * widget waiting forever), and the host stops a widget that sends thousands a second. (A widget
 * can reach around this page — it shares its origin — so the host counts again.)
 */
import { ENVELOPE, isEnvelope, type HostToSandbox, type OpenAiOp, type SandboxToHost } from '../sandbox-protocol.js';
import { installOpenAi, type OpenAiShim } from './openai-shim.js';

const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
const INNER_SANDBOX = 'allow-scripts allow-same-origin allow-forms';
/** A widget document that has not fired `load` by then is reported as still loading. */
const SLOW_LOAD_MS = 5000;

type Init = Extract<HostToSandbox, { type: 'init' }>;
type Body<T> = T extends unknown ? Omit<T, 'mcpscope'> : never;
type Say = (message: Body<SandboxToHost>) => void;

function start(): void {
  const hostOrigin = new URLSearchParams(location.search).get('host') ?? '';
  const toHost = (message: unknown) => window.parent.postMessage(message, hostOrigin);
  const say: Say = (message) => toHost({ mcpscope: ENVELOPE, ...message });
  // Only as a direct child of the dashboard: anything else (a widget framing this page) gets nothing.
  if (window.parent !== window.top || !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(hostOrigin)) {
    document.body.textContent = 'mcpscope sandbox: not embedded by the dashboard.';
    return;
  }

  let init: Init | undefined;
  let shim: OpenAiShim | undefined;
  let inner: HTMLIFrameElement | undefined;
  const flood = floodGate(() => init?.floodLimit ?? 100, (dropped, seen) => say({ type: 'flood', dropped, seen }));

  window.addEventListener('message', (event) => {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      const data: unknown = event.data;
      if (isEnvelope(data)) return fromHost(data as HostToSandbox);
      if (isRpc(data) && data.method === RESOURCE_READY) return render(data.params as { html?: unknown; sandbox?: unknown });
      if (isRpc(data)) inner?.contentWindow?.postMessage(data, location.origin);
      return;
    }
    if (inner && event.source === inner.contentWindow && event.origin === location.origin && isRpc(event.data)) {
      // A notification (no id) may be dropped; a request or a response never is.
      if (flood.allow(!('id' in event.data))) toHost(event.data);
    }
  });

  function fromHost(message: HostToSandbox): void {
    if (message.type === 'init') init ??= message;
    else if (message.type === 'resource') render(message);
    else if (message.type === 'globals') shim?.update(message.globals);
    else if (message.type === 'openai-reply') shim?.reply(message.id, message.result, message.error);
  }

  function render(params: { html?: unknown; sandbox?: unknown }): void {
    if (inner || typeof params.html !== 'string') return; // once per page: a second resource is ignored
    const frame = document.createElement('iframe');
    inner = frame;
    frame.setAttribute('sandbox', typeof params.sandbox === 'string' ? narrowSandbox(params.sandbox) : INNER_SANDBOX);
    if (init?.allow) frame.setAttribute('allow', init.allow);
    frame.title = 'widget';
    document.body.appendChild(frame);
    const win = frame.contentWindow as (Window & typeof globalThis) | null;
    const doc = frame.contentDocument;
    if (!win || !doc) return say({ type: 'uncaught', text: 'the sandbox could not open the widget document' });
    doc.open();
    // After open() (which clears listeners) and before the widget's first byte.
    hook(win, say, () => flood.allow(true));
    if (init?.openai !== false && init) {
      shim = installOpenAi(win, init.globals, (op: OpenAiOp, payload: unknown, id?: number) => {
        if (flood.allow(id === undefined)) say({ type: 'openai', op, payload, ...(id !== undefined ? { id } : {}) });
      });
    }
    const t0 = performance.now();
    let loads = 0;
    let loaded = false;
    setTimeout(() => loaded || say({ type: 'slow', ms: SLOW_LOAD_MS }), SLOW_LOAD_MS);
    frame.addEventListener('load', () => {
      if (++loads > 1) say({ type: 'uncaught', text: `the widget navigated its own frame away (to ${safeHref(frame)}); the new page has no bridge`, where: 'navigation' });
    });
    win.addEventListener('load', () => {
      loaded = true;
      say({ type: 'loaded', ms: Math.round(performance.now() - t0) });
    });
    doc.write(params.html);
    doc.close();
  }

  toHost({ jsonrpc: '2.0', method: PROXY_READY, params: {} });
}

/** Console errors and warnings, uncaught exceptions and rejections, and blocked loads, from inside the widget. */
function hook(win: Window & typeof globalThis, say: Say, allow: () => boolean): void {
  const send: Say = (m) => {
    if (allow()) say(m);
  };
  for (const level of ['error', 'warn'] as const) {
    const original = win.console[level].bind(win.console);
    win.console[level] = (...args: unknown[]) => {
      send({ type: 'console', level, text: clip(args.map(text).join(' ')) });
      original(...args);
    };
  }
  win.addEventListener('error', (e) => send({ type: 'uncaught', text: clip(e.message || String(e.error)), where: e.filename ? `${e.filename}:${e.lineno}` : undefined }));
  win.addEventListener('unhandledrejection', (e) => send({ type: 'uncaught', text: clip(`unhandled rejection: ${text(e.reason)}`) }));
  win.addEventListener('securitypolicyviolation', (e) =>
    send({ type: 'csp', blockedURI: e.blockedURI, effectiveDirective: e.effectiveDirective, sourceFile: e.sourceFile || undefined, line: e.lineNumber || undefined }),
  );
}

/**
 * At most `limit()` droppable messages a second; what is dropped is reported once a second, with
 * how many messages the widget sent in all (the host stops a runaway).
 */
function floodGate(limit: () => number, report: (dropped: number, seen: number) => void) {
  let windowStart = 0;
  let passed = 0;
  let dropped = 0;
  let seen = 0;
  return {
    allow(droppable: boolean): boolean {
      const now = performance.now();
      if (now - windowStart >= 1000) {
        if (dropped > 0) report(dropped, seen);
        windowStart = now;
        passed = 0;
        dropped = 0;
        seen = 0;
      }
      seen++;
      if (!droppable || ++passed <= limit()) return true;
      dropped++;
      return false;
    },
  };
}

/** The widget's frame never gets more than ext-apps' defaults, whatever the host message says. */
function narrowSandbox(requested: string): string {
  const allowed = new Set(INNER_SANDBOX.split(' '));
  return requested.split(/\s+/).filter((flag) => allowed.has(flag)).join(' ') || INNER_SANDBOX;
}

function isRpc(data: unknown): data is { jsonrpc: '2.0'; method?: string; params?: unknown } {
  return typeof data === 'object' && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

function text(v: unknown): string {
  if (v instanceof Error || (typeof v === 'object' && v !== null && 'message' in v)) return String((v as Error).stack ?? (v as Error).message);
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

function clip(s: string): string {
  return s.length > 2000 ? `${s.slice(0, 2000)}… (${s.length} chars)` : s;
}

function safeHref(frame: HTMLIFrameElement): string {
  try {
    return frame.contentWindow?.location.href ?? '?';
  } catch {
    return 'another origin';
  }
}

start();
