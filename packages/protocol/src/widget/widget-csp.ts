/**
 * The Content-Security-Policy a widget runs under, built from what its resource declares, and
 * what a blocked load means in the declaring standard's own words.
 *
 * The policy follows the hosts that publish theirs: ext-apps' reference host (basic-host `csp.ts`:
 * inline and eval allowed, since widgets are single bundled files; external scripts, styles,
 * images, fonts, media and workers only from `resourceDomains`; fetch/XHR/WebSocket only to
 * `connectDomains`; no nested frames or `<base>` unless declared; no plugins) and OpenAI's
 * Apps SDK reference (`resource_domains` for static assets, `connect_domains` for network calls,
 * `frame_domains` for iframes, none by default) — which is why a widget that loads an undeclared
 * CDN script renders blank in ChatGPT.
 *
 * Entries that could break out of a directive (`;`, `,`, quotes, whitespace) are dropped, so a
 * hostile resource cannot add keywords or directives of its own.
 */
import type { WidgetCsp } from './widget-resource.js';

/** A source expression a widget may declare: no separators, quotes or whitespace. */
export function isSafeSource(entry: string): boolean {
  return entry.length > 0 && entry.length <= 2048 && !/[;,'"\s\\]/.test(entry);
}

const safe = (list: readonly string[]) => list.filter(isSafeSource);

/** The policy's directives, in order; `self` is the sandbox's own origin (it serves nothing). */
export function widgetCspDirectives(csp: Pick<WidgetCsp, 'connectDomains' | 'resourceDomains' | 'frameDomains' | 'baseUriDomains'>): string[] {
  const resource = safe(csp.resourceDomains).join(' ');
  const connect = safe(csp.connectDomains).join(' ');
  const frame = safe(csp.frameDomains).join(' ');
  const base = safe(csp.baseUriDomains).join(' ');
  const withResources = (fixed: string) => `${fixed}${resource ? ` ${resource}` : ''}`;
  return [
    "default-src 'self'",
    withResources("script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:"),
    withResources("style-src 'self' 'unsafe-inline' blob: data:"),
    withResources("img-src 'self' data: blob:"),
    withResources("font-src 'self' data: blob:"),
    withResources("media-src 'self' data: blob:"),
    withResources("worker-src 'self' blob:"),
    `connect-src 'self'${connect ? ` ${connect}` : ''}`,
    frame ? `frame-src ${frame}` : "frame-src 'none'",
    "object-src 'none'",
    base ? `base-uri ${base}` : "base-uri 'none'",
  ];
}

export function widgetCspHeader(csp: Parameters<typeof widgetCspDirectives>[0]): string {
  return widgetCspDirectives(csp).join('; ');
}

/** What kind of load a directive governs, and which declared list would have allowed it. */
const LISTS: Record<string, { what: string; mcpApps: string; appsSdk?: string }> = {
  script: { what: 'script', mcpApps: 'resourceDomains', appsSdk: 'resource_domains' },
  style: { what: 'stylesheet', mcpApps: 'resourceDomains', appsSdk: 'resource_domains' },
  img: { what: 'image', mcpApps: 'resourceDomains', appsSdk: 'resource_domains' },
  font: { what: 'font', mcpApps: 'resourceDomains', appsSdk: 'resource_domains' },
  media: { what: 'media file', mcpApps: 'resourceDomains', appsSdk: 'resource_domains' },
  worker: { what: 'worker', mcpApps: 'resourceDomains', appsSdk: 'resource_domains' },
  connect: { what: 'network request (fetch, XHR or WebSocket)', mcpApps: 'connectDomains', appsSdk: 'connect_domains' },
  frame: { what: 'frame', mcpApps: 'frameDomains', appsSdk: 'frame_domains' },
  child: { what: 'frame', mcpApps: 'frameDomains', appsSdk: 'frame_domains' },
  base: { what: '<base> URL', mcpApps: 'baseUriDomains' },
};

export interface CspViolation {
  /** `securitypolicyviolation`'s blockedURI: a URL, or `inline`, `eval`, `data`… */
  blockedURI: string;
  /** e.g. `script-src-elem`, `connect-src`. */
  effectiveDirective: string;
}

/**
 * "the widget loaded https://cdn.example.com/app.js (a script), which is not in resource_domains":
 * the finding for one blocked load, naming the list in the standard(s) the resource declared.
 */
export function describeCspViolation(v: CspViolation, csp: Pick<WidgetCsp, 'declaredBy'>): string {
  const family = v.effectiveDirective.replace(/-src(-elem|-attr)?$/, '').replace(/-uri$/, '');
  const list = LISTS[family];
  const target = v.blockedURI || '(unknown)';
  if (!list) return `the widget's ${v.effectiveDirective} blocked ${target}`;
  const names: string[] = [];
  const mcp = `_meta.ui.csp.${list.mcpApps}`;
  const openai = list.appsSdk ? `openai/widgetCSP ${list.appsSdk}` : undefined;
  if (csp.declaredBy.includes('apps-sdk') && openai) names.push(openai);
  if (csp.declaredBy.includes('mcp-apps') || !openai) names.push(mcp);
  const where = csp.declaredBy.length === 0 ? `but the resource declares no CSP: add its origin to ${openai ? `${mcp} (or ${openai})` : mcp}` : `which is not in ${names.join(' nor in ')}`;
  return `the widget loaded ${target} (a ${list.what}), ${where}. ChatGPT and other hosts block it too, which is why such a widget renders blank.`;
}
