/**
 * The origin each host serves a widget from, as the host computes it, so the audit can ask
 * whether the server's own endpoints let that origin in (CORS) and whether a declared
 * `_meta.ui.domain` is the one the host will accept.
 *
 * Claude: `sha256(connector URL)` in hex, its first 32 characters, under `claudemcpcontent.com`;
 * the connector URL is exactly what the user typed (a trailing slash changes the hash), and
 * Claude refuses a `ui.domain` that is not this value.
 * ChatGPT: a sandbox subdomain under `web-sandbox.oaiusercontent.com` ChatGPT assigns per app;
 * `openai/widgetDomain` / `ui.domain` name the app's dedicated origin. Its exact derivation is
 * not documented, so the audit matches any origin under `oaiusercontent.com`.
 */
import { sha256Hex } from './sha256.js';

export const CLAUDE_WIDGET_SUFFIX = '.claudemcpcontent.com';
export const CHATGPT_WIDGET_SUFFIX = '.oaiusercontent.com';

/** `{hash}.claudemcpcontent.com` for a connector URL. */
export function claudeWidgetDomain(serverUrl: string): string {
  return `${sha256Hex(serverUrl).slice(0, 32)}${CLAUDE_WIDGET_SUFFIX}`;
}

/** The widget origins a host may send as `Origin` (a pattern when the exact one is unknown). */
export function widgetOriginMatcher(host: 'chatgpt' | 'claude', serverUrl: string | undefined): (origin: string) => boolean {
  if (host === 'claude') {
    const exact = serverUrl ? `https://${claudeWidgetDomain(serverUrl)}` : undefined;
    return (origin) => (exact ? origin === exact : origin.startsWith('https://') && origin.endsWith(CLAUDE_WIDGET_SUFFIX));
  }
  return (origin) => origin.startsWith('https://') && origin.endsWith(CHATGPT_WIDGET_SUFFIX);
}
