/**
 * A widget that shows what its host tells it, for the host-settings spec: the `window.openai`
 * globals (kept current by `openai:set_globals`) and the MCP Apps host context (from
 * `ui/initialize`, kept current by `ui/notifications/host-context-changed`), each as JSON in its
 * own element. `#boot` is a random number drawn once per document, so a test can tell a live
 * update from a reload. It also misbehaves the ways a host must report: a console error and an
 * uncaught exception on load. Its buttons call tools through either bridge and ask for what no
 * preview offers (resources/read, ui/download-file); `#answer` shows how each went.
 *
 * It speaks the MCP Apps JSON-RPC by hand (as a server's one-file widget does, and as the demo's
 * gift cards do): the widget side of the bridge, never the host side mcpscope takes from ext-apps.
 */
export const PROBE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>probe</title></head><body>
<pre id="boot"></pre><pre id="openai">no window.openai</pre><pre id="mcp">not initialized</pre><pre id="answer"></pre>
<button id="openai-call">window.openai.callTool</button>
<button id="mcp-call">MCP Apps tools/call</button>
<button id="mcp-read">MCP Apps resources/read</button>
<button id="mcp-download">MCP Apps ui/download-file</button>
<input id="tool" value="">
<script>
const show = (id, value) => { document.getElementById(id).textContent = JSON.stringify(value); };
document.getElementById('boot').textContent = String(Math.random());
const o = window.openai;
const openaiView = () => show('openai', { theme: o.theme, displayMode: o.displayMode, locale: o.locale, maxHeight: o.maxHeight, device: o.userAgent.device.type, safeBottom: o.safeArea.insets.bottom });
if (o) { openaiView(); window.addEventListener('openai:set_globals', openaiView); }

let ctx = {};
let next = 0;
const pending = new Map();
const request = (method, params) => new Promise((resolve, reject) => {
  const id = ++next;
  pending.set(id, { resolve, reject });
  parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
});
const mcpView = () => show('mcp', { theme: ctx.theme, displayMode: ctx.displayMode, locale: ctx.locale, width: ctx.containerDimensions && ctx.containerDimensions.width, maxHeight: ctx.containerDimensions && ctx.containerDimensions.maxHeight, platform: ctx.platform });
window.addEventListener('message', (event) => {
  const m = event.data;
  if (event.source !== parent || !m || m.jsonrpc !== '2.0') return;
  if (m.method === undefined && pending.has(m.id)) {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p.reject(m.error); else p.resolve(m.result);
  } else if (m.method === 'ui/notifications/host-context-changed') {
    Object.assign(ctx, m.params);
    mcpView();
  }
});
request('ui/initialize', { appInfo: { name: 'probe', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' }).then((result) => {
  ctx = Object.assign({}, result.hostContext);
  mcpView();
  parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
});

const tool = () => document.getElementById('tool').value;
const answer = (promise) => promise.then(
  (result) => show('answer', { ok: result && result.structuredContent !== undefined ? result.structuredContent : result }),
  (error) => show('answer', { error: error && error.message ? error.message : String(error), code: error && error.code }),
);
document.getElementById('openai-call').onclick = () => answer(o.callTool(tool(), { from: 'openai' }));
document.getElementById('mcp-call').onclick = () => answer(request('tools/call', { name: tool(), arguments: { from: 'mcp-apps' } }));
document.getElementById('mcp-read').onclick = () => answer(request('resources/read', { uri: 'ui://probe/w.html' }));
document.getElementById('mcp-download').onclick = () => answer(request('ui/download-file', { contents: [{ type: 'resource_link', uri: 'https://example.com/report.csv', name: 'report.csv' }] }));

console.error('probe: a console error on load');
setTimeout(() => { throw new Error('probe: an uncaught exception on load'); }, 0);
</script></body></html>`;
