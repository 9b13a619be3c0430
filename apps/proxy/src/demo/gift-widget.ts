/**
 * The demo's widget for `suggest_gifts`: a small list of gift cards rendered from the result's
 * structuredContent, declared for both standards (MCP Apps `_meta.ui.resourceUri` and the Apps
 * SDK's `openai/outputTemplate`), with a "Wrap" button per card that calls `wrap_gift` through
 * the host. It speaks whichever bridge the host offers: `window.openai` when present (ChatGPT),
 * else the MCP Apps JSON-RPC over postMessage, written out by hand so the widget stays one small
 * self-contained file, as a server's widget is.
 */
import { MCP_APP_MIME } from '@mcpscope/protocol';

export const GIFT_WIDGET_URI = 'ui://gift-ideas/gift-cards.html';

/** Both standards' resource metadata: no external loads at all, a border please. */
export const GIFT_WIDGET_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
  'openai/widgetCSP': { connect_domains: [], resource_domains: [] },
  'openai/widgetPrefersBorder': true,
  'openai/widgetDescription': 'Gift ideas as cards, each with a button that wraps the gift.',
};

export const GIFT_WIDGET_RESOURCE = {
  uri: GIFT_WIDGET_URI,
  name: 'gift_cards_widget',
  title: 'Gift cards (widget)',
  mimeType: MCP_APP_MIME,
  description: 'The widget suggest_gifts renders its ideas in.',
  _meta: GIFT_WIDGET_META,
};

export const GIFT_WIDGET_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Gift ideas</title>
<style>
  :root { color-scheme: light; --bg: #ffffff; --fg: #1d1d1f; --muted: #6e6e73; --card: #f5f5f7; --accent: #0a66d8; }
  :root[data-theme="dark"] { color-scheme: dark; --bg: #1e1e20; --fg: #f2f2f5; --muted: #a1a1a6; --card: #2a2a2d; --accent: #5ea0ff; }
  body { margin: 0; padding: 12px; font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
  ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
  li { background: var(--card); border-radius: 10px; padding: 10px 12px; display: flex; align-items: center; gap: 12px; }
  .name { flex: 1; font-weight: 600; }
  .price { color: var(--muted); }
  button { font: inherit; border: 0; border-radius: 8px; padding: 6px 12px; background: var(--accent); color: #fff; cursor: pointer; }
  button:disabled { opacity: .6; cursor: default; }
  .status { color: var(--muted); margin: 8px 0 0; min-height: 1.4em; }
  footer { margin-top: 8px; color: var(--muted); font-size: 12px; display: flex; justify-content: space-between; }
  a { color: var(--accent); }
</style>
</head>
<body>
<main>
  <ul id="gifts"><li class="empty">Waiting for gift ideas…</li></ul>
  <p class="status" id="status" role="status"></p>
  <footer><span id="host"></span><a href="#" id="more">More ideas</a></footer>
</main>
<script>
(() => {
  const openai = window.openai;
  const list = document.getElementById('gifts');
  const status = document.getElementById('status');
  const host = document.getElementById('host');
  const view = { theme: 'light', displayMode: 'inline', bridge: openai ? 'window.openai' : 'MCP Apps' };
  const wrapped = [];
  let nextId = 0;
  const pending = new Map();

  function show() {
    document.documentElement.dataset.theme = view.theme === 'dark' ? 'dark' : 'light';
    host.textContent = view.bridge + ' · ' + view.theme + ' · ' + view.displayMode;
  }
  function render(structured) {
    const gifts = structured && Array.isArray(structured.gifts) ? structured.gifts : [];
    list.replaceChildren();
    if (gifts.length === 0) {
      const li = document.createElement('li');
      li.textContent = structured ? 'No gift ideas in this result.' : 'Waiting for gift ideas…';
      list.append(li);
      return;
    }
    for (const gift of gifts) {
      const li = document.createElement('li');
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = gift.name;
      const price = document.createElement('span');
      price.className = 'price';
      price.textContent = '$' + gift.price;
      const wrap = document.createElement('button');
      wrap.textContent = 'Wrap';
      wrap.addEventListener('click', () => wrapGift(gift.name, wrap));
      li.append(name, price, wrap);
      list.append(li);
    }
  }
  async function wrapGift(gift, button) {
    button.disabled = true;
    status.textContent = 'Wrapping ' + gift + '…';
    try {
      const result = await callTool('wrap_gift', { gift, steps: 2 });
      const text = result && Array.isArray(result.content) && result.content[0] ? result.content[0].text : 'Wrapped.';
      status.textContent = text;
      wrapped.push(gift);
      remember();
    } catch (err) {
      status.textContent = 'Could not wrap it: ' + (err && err.message ? err.message : err);
      button.disabled = false;
    }
  }

  // MCP Apps: JSON-RPC over postMessage with the host.
  function send(message) { window.parent.postMessage(message, '*'); }
  function request(method, params) {
    const id = ++nextId;
    send({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (event.source !== window.parent || !m || m.jsonrpc !== '2.0') return;
    if (m.method === undefined && pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message)); else p.resolve(m.result);
    } else if (m.method === 'ui/notifications/tool-result') {
      render(m.params && m.params.structuredContent);
    } else if (m.method === 'ui/notifications/host-context-changed') {
      context(m.params);
    } else if (m.method === 'ui/resource-teardown' && m.id !== undefined) {
      send({ jsonrpc: '2.0', id: m.id, result: {} });
    }
  });
  function context(ctx) {
    if (!ctx) return;
    if (ctx.theme) view.theme = ctx.theme;
    if (ctx.displayMode) view.displayMode = ctx.displayMode;
    show();
  }

  function callTool(name, args) {
    if (openai) return openai.callTool(name, args);
    return request('tools/call', { name, arguments: args });
  }
  function remember() {
    if (openai) openai.setWidgetState({ wrapped: wrapped.slice() });
    else request('ui/update-model-context', { structuredContent: { wrapped: wrapped.slice() } }).catch(() => {});
  }
  document.getElementById('more').addEventListener('click', (e) => {
    e.preventDefault();
    const prompt = 'Suggest three more gift ideas like these.';
    if (openai) openai.sendFollowUpMessage({ prompt });
    else request('ui/message', { role: 'user', content: [{ type: 'text', text: prompt }] }).catch(() => {});
  });
  function reportHeight() {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (openai && openai.notifyIntrinsicHeight) openai.notifyIntrinsicHeight(height);
    else if (!openai) send({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height } });
  }
  new ResizeObserver(reportHeight).observe(document.documentElement);

  if (openai) {
    view.theme = openai.theme || 'light';
    view.displayMode = openai.displayMode || 'inline';
    show();
    render(openai.toolOutput);
    window.addEventListener('openai:set_globals', (event) => {
      const g = event.detail.globals;
      if (g.theme) view.theme = g.theme;
      if (g.displayMode) view.displayMode = g.displayMode;
      if (g.toolOutput !== undefined) render(g.toolOutput);
      show();
    });
  } else {
    show();
    request('ui/initialize', { appInfo: { name: 'gift-cards', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] }, protocolVersion: '2026-01-26' })
      .then((result) => {
        context(result && result.hostContext);
        send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
      })
      .catch((err) => { status.textContent = 'The host did not initialize the widget: ' + err.message; });
  }
})();
</script>
</body>
</html>
`;
