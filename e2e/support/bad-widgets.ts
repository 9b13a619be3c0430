/**
 * Misbehaving widget documents, shared by the bad-input spec and the flood benchmark
 * (bench/widget-flood.ts).
 */

/** A widget of about `bytes` bytes of HTML: a long list, then an `#end` marker. */
export function bigWidgetHtml(bytes: number): string {
  const item = '<li>a gift idea that takes up a line of the list, padded to make the widget large</li>\n';
  const head = '<!doctype html><html><body><ul>';
  const tail = `</ul><p id="end">end of the ${Math.round(bytes / (1024 * 1024))} MB widget</p></body></html>`;
  return head + item.repeat(Math.ceil((bytes - head.length - tail.length) / item.length)) + tail;
}

/**
 * A widget that posts `perSecond` MCP Apps log notifications a second (in batches every 10 ms):
 * through the bridge (to its parent, mcpscope's sandbox page) or around it (straight at the
 * dashboard, `top`). `#sent` counts them.
 */
export function floodWidgetHtml(route: 'bridge' | 'around', perSecond = 10_000): string {
  const target = route === 'bridge' ? 'parent' : 'top';
  return `<!doctype html><html><body><p>sent: <span id="sent">0</span></p><script>
let sent = 0;
const counter = document.getElementById('sent');
setInterval(() => {
  for (let i = 0; i < ${Math.ceil(perSecond / 100)}; i++) {
    ${target}.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'flood ' + sent } }, '*');
    sent++;
  }
  counter.textContent = String(sent);
}, 10);
</script></body></html>`;
}
