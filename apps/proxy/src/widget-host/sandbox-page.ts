/**
 * The sandbox page the widget listener serves: a blank document whose only script is mcpscope's
 * sandbox (apps/web/src/widget/sandbox, built to `sandbox/sandbox.js` beside the dashboard), sent
 * with two Content-Security-Policy headers:
 * - the widget's own, from the CSP its resource declares (`?csp=`, MCP Apps names), built by the
 *   protocol package exactly as hosts enforce it; the widget's inner frame inherits it, and as an
 *   HTTP header no widget can loosen it;
 * - `frame-ancestors` naming the one dashboard origin that embeds it (`?host=`), which must be
 *   this mcpscope's dashboard: no other page may frame the sandbox.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, widgetCspHeader } from '@mcpscope/protocol';

export interface SandboxScript {
  /** The script's text, or undefined when the web app was not built. */
  text(): string | undefined;
}

/** Reads `sandbox/sandbox.js` from the built web app once, on first use. */
export function sandboxScriptFrom(webRoot: string): SandboxScript {
  let cached: string | undefined;
  return {
    text() {
      if (cached === undefined) {
        try {
          cached = readFileSync(join(webRoot, 'sandbox', 'sandbox.js'), 'utf8');
        } catch {
          return undefined;
        }
      }
      return cached;
    },
  };
}

export interface SandboxPage {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

const text = (status: number, body: string): SandboxPage => ({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

export function sandboxPage(params: URLSearchParams, dashboardOrigins: ReadonlySet<string>, script: SandboxScript): SandboxPage {
  const host = params.get('host') ?? '';
  if (!dashboardOrigins.has(host)) return text(403, 'mcpscope widget sandbox: only the dashboard that started it may embed it.');
  const csp = parseCsp(params.get('csp'));
  if (!csp) return text(400, 'mcpscope widget sandbox: ?csp= must be a JSON object of string lists (connectDomains, resourceDomains, frameDomains, baseUriDomains).');
  const source = script.text();
  if (source === undefined) return text(503, 'mcpscope widget sandbox: the web app is not built (sandbox/sandbox.js is missing); run `pnpm run build`.');
  const body = [
    '<!doctype html><html><head><meta charset="utf-8"><title>mcpscope widget sandbox</title>',
    '<style>html,body{margin:0;height:100%;background:transparent;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>',
    `</head><body><script type="module">${source.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
  ].join('');
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': [widgetCspHeader(csp), `frame-ancestors ${host}`],
    },
    body,
  };
}

type CspLists = Parameters<typeof widgetCspHeader>[0];

function parseCsp(raw: string | null): CspLists | undefined {
  if (raw === null || raw === '') return { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  const list = (key: string): string[] | undefined => {
    const v = value[key];
    if (v === undefined) return [];
    return Array.isArray(v) && v.every((d) => typeof d === 'string') ? (v as string[]) : undefined;
  };
  const lists = { connectDomains: list('connectDomains'), resourceDomains: list('resourceDomains'), frameDomains: list('frameDomains'), baseUriDomains: list('baseUriDomains') };
  if (Object.values(lists).some((l) => l === undefined)) return undefined;
  return lists as CspLists;
}
