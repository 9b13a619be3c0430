/**
 * Checks on widgets (MCP Apps and the Apps SDK): the template as the server serves it, and the
 * metadata each host reads from the tool and from the resource.
 */

import { MCP_APP_MIME, OPENAI_OUTPUT_TEMPLATE, OPENAI_VISIBILITY, OPENAI_WIDGET_ACCESSIBLE, SKYBRIDGE_MIME, mcpAppsVisibility } from '../../widget/widget-declaration.js';
import { OPENAI_WIDGET_CSP } from '../../widget/widget-resource.js';
import type { AuditCheck, AuditContextLike, CheckOutcome, Finding } from '../audit-types.js';
import { docs, metaOf, notSeen, outcome, spec, uiOf } from '../check-kit.js';
import { contentMeta, widgetReads, type WidgetRead } from './widget-reads.js';

const NEEDS_READ = 'a resources/read of each widget URI (open the widget in a host, or `mcpscope audit --target`)';
const MCP_APPS_HOSTS = ['claude', 'cursor', 'vscode'] as const;

function withWidgets(context: AuditContextLike, evaluate: (reads: WidgetRead[]) => CheckOutcome): CheckOutcome {
  if (context.tools.length === 0) return notSeen('no tools/list answer in the capture');
  const reads = widgetReads(context);
  if (reads.length === 0) return { verdict: 'pass', findings: [], summary: 'no tool declares a widget' };
  return evaluate(reads);
}

function withReads(context: AuditContextLike, evaluate: (reads: WidgetRead[]) => CheckOutcome): CheckOutcome {
  return withWidgets(context, (all) => {
    const reads = all.filter((r) => r.content);
    if (reads.length === 0) return notSeen(`no resources/read answer for ${all.map((r) => r.uri).join(', ')}`);
    return evaluate(reads);
  });
}

const templateServed: AuditCheck = {
  id: 'widget-template-served',
  title: 'Each widget URI a tool names is served by resources/read',
  group: 'widgets',
  hosts: ['chatgpt', ...MCP_APPS_HOSTS],
  help: 'A host fetches the template a tool names with resources/read and renders nothing when the read fails or comes back without text or blob. The resource MUST exist on the server.',
  fix: 'Register a resource with exactly the URI the tool names, returning the HTML as text.',
  needs: NEEDS_READ,
  source: spec('https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#resource-discovery'),
  evaluate: (context) =>
    withWidgets(context, (reads) => {
      const findings: Finding[] = [];
      const unread = reads.filter((r) => !r.read);
      for (const r of reads) {
        if (!r.read) continue;
        const where = { exchangeId: r.read.id, path: r.contentPath ?? '$.result.contents' };
        if (!r.read.result) findings.push({ verdict: 'fail', message: `resources/read of ${r.uri} failed${r.read.error?.message ? `: ${r.read.error.message}` : ''}`, evidence: { exchangeId: r.read.id, path: '$.error' } });
        else if (!r.content || (typeof r.content.text !== 'string' && typeof r.content.blob !== 'string')) findings.push({ verdict: 'fail', message: `${r.uri} came back without text or blob`, evidence: where });
      }
      if (unread.length === reads.length) return notSeen(`no resources/read of ${unread.map((r) => r.uri).join(', ')}`);
      return outcome(findings, `${reads.length - unread.length} widget templates served`);
    }),
};

const mimeType: AuditCheck = {
  id: 'widget-mime-type',
  title: 'The template\'s mimeType is text/html;profile=mcp-app',
  group: 'widgets',
  hosts: ['chatgpt', ...MCP_APPS_HOSTS],
  help: 'MCP Apps requires the template resource\'s mimeType to be "text/html;profile=mcp-app". ChatGPT also renders the Apps SDK\'s older "text/html+skybridge", which every other MCP Apps host refuses: they show no widget.',
  fix: 'Serve the template as text/html;profile=mcp-app (ChatGPT renders it too).',
  needs: NEEDS_READ,
  source: spec('https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#content-requirements'),
  evaluate: (context) =>
    withReads(context, (reads) => {
      const findings: Finding[] = [];
      for (const r of reads) {
        const mime = typeof r.content!.mimeType === 'string' ? r.content!.mimeType.replace(/\s+/g, '').toLowerCase() : undefined;
        const evidence = { exchangeId: r.read!.id, path: `${r.contentPath}.mimeType` };
        if (mime === MCP_APP_MIME) continue;
        if (mime === SKYBRIDGE_MIME) findings.push({ verdict: 'fail', message: `${r.uri} is served as ${SKYBRIDGE_MIME}: only ChatGPT renders it`, evidence, hosts: [...MCP_APPS_HOSTS] });
        else findings.push({ verdict: 'fail', message: `${r.uri} is served as ${mime ? `"${mime}"` : 'no mimeType'}: no host renders it`, evidence });
      }
      return outcome(findings, `${reads.length} templates served as ${MCP_APP_MIME}`);
    }),
};

const urisAgree: AuditCheck = {
  id: 'widget-uris-agree',
  title: '_meta.ui.resourceUri and openai/outputTemplate name the same template',
  group: 'widgets',
  hosts: ['chatgpt', ...MCP_APPS_HOSTS],
  help: 'ChatGPT reads openai/outputTemplate (Apps SDK) and the MCP Apps hosts read _meta.ui.resourceUri. When a tool declares both with different URIs, each host renders a different widget, and a fix tested in one never reaches the other.',
  fix: 'Use one URI for both keys, or drop openai/outputTemplate (ChatGPT reads _meta.ui.resourceUri too).',
  needs: 'a tools/list answer',
  source: docs('https://developers.openai.com/apps-sdk/mcp-apps-in-chatgpt'),
  evaluate: (context) =>
    withWidgets(context, (reads) => {
      const findings: Finding[] = [];
      for (const r of reads) {
        for (const t of r.tools) {
          const meta = metaOf(t.tool);
          const nested = uiOf(meta)?.resourceUri;
          const template = meta?.[OPENAI_OUTPUT_TEMPLATE];
          if (typeof nested === 'string' && typeof template === 'string' && nested !== template) findings.push({ verdict: 'fail', message: `${t.name}: ui.resourceUri "${nested}" but openai/outputTemplate "${template}"`, evidence: { exchangeId: t.exchangeId, path: `${t.path}._meta` } });
        }
      }
      return outcome(findings, 'every widget tool names one template');
    }),
};

const cspPlacement: AuditCheck = {
  id: 'widget-csp-on-resource',
  title: 'The widget\'s CSP is declared on the resource, not the tool',
  group: 'widgets',
  hosts: ['chatgpt', ...MCP_APPS_HOSTS],
  help: 'Hosts read the sandbox\'s CSP (_meta.ui.csp, or openai/widgetCSP) from the template resource that resources/read returns. A CSP on the tool descriptor is ignored, so the widget runs under the restrictive default (connect-src \'none\') and every fetch it makes is blocked: it renders blank or broken.',
  fix: 'Move _meta.ui.csp / openai/widgetCSP from the tool to the resource\'s contents[]._meta.',
  needs: 'a tools/list answer and the widget\'s resources/read',
  source: spec('https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#ui-resource-format'),
  evaluate: (context) =>
    withWidgets(context, (reads) => {
      const findings: Finding[] = [];
      for (const r of reads) {
        const onResource = contentMeta(r);
        const resourceHas = Boolean(uiOf(onResource)?.csp ?? onResource?.[OPENAI_WIDGET_CSP]);
        for (const t of r.tools) {
          const meta = metaOf(t.tool);
          const key = uiOf(meta)?.csp ? 'ui.csp' : meta?.[OPENAI_WIDGET_CSP] ? OPENAI_WIDGET_CSP : undefined;
          if (key && !resourceHas) findings.push({ verdict: 'fail', message: `${t.name} declares ${key} on the tool${r.content ? ', and the resource has none' : ''}: hosts ignore it there`, evidence: { exchangeId: t.exchangeId, path: `${t.path}._meta` } });
        }
      }
      return outcome(findings, 'no CSP left on a tool');
    }),
};

const cspDeclared: AuditCheck = {
  id: 'widget-csp-declared',
  title: 'The widget resource declares a CSP',
  group: 'widgets',
  hosts: ['chatgpt'],
  help: 'OpenAI requires a content security policy on the widget for app submission (the MCP server requirements of the submission page). Without one, MCP Apps hosts apply connect-src \'none\' as well, so a widget that fetches anything fails.',
  fix: 'Declare _meta.ui.csp (connectDomains, resourceDomains) on the resource, listing every origin the widget loads from or calls.',
  needs: NEEDS_READ,
  source: docs('https://developers.openai.com/apps-sdk/deploy/submission'),
  evaluate: (context) =>
    withReads(context, (reads) => {
      const findings: Finding[] = reads
        .filter((r) => !(uiOf(contentMeta(r))?.csp ?? contentMeta(r)?.[OPENAI_WIDGET_CSP]))
        .map((r) => ({ verdict: 'fail' as const, message: `${r.uri} declares no CSP`, evidence: { exchangeId: r.read!.id, path: `${r.contentPath}._meta` } }));
      return outcome(findings, `${reads.length} templates declare a CSP`);
    }),
};

const visibility: AuditCheck = {
  id: 'widget-visibility-standard',
  title: 'Tool visibility uses _meta.ui.visibility, not only openai/visibility',
  group: 'widgets',
  hosts: [...MCP_APPS_HOSTS],
  help: 'openai/visibility: "private" hides a tool from ChatGPT\'s model only; MCP Apps hosts read _meta.ui.visibility and show the tool to their model. OpenAI\'s reference now tells servers to use the MCP Apps standard fields by default.',
  fix: 'Declare _meta.ui.visibility: ["app"] (or ["model","app"]) next to, or instead of, openai/visibility.',
  needs: 'a tools/list answer',
  source: docs('https://developers.openai.com/apps-sdk/reference'),
  evaluate(context) {
    if (context.tools.length === 0) return notSeen('no tools/list answer in the capture');
    const findings: Finding[] = context.tools
      .filter((t) => typeof metaOf(t.tool)?.[OPENAI_VISIBILITY] === 'string' && !mcpAppsVisibility(t.tool).declared)
      .map((t) => ({ verdict: 'warn' as const, message: `${t.name} sets only openai/visibility "${String(metaOf(t.tool)![OPENAI_VISIBILITY])}"`, evidence: { exchangeId: t.exchangeId, path: `${t.path}._meta["${OPENAI_VISIBILITY}"]` } }));
    return outcome(findings, 'visibility declared the standard way');
  },
};

const widgetAccessible: AuditCheck = {
  id: 'widget-accessible',
  title: 'Tools only a widget calls set openai/widgetAccessible',
  group: 'widgets',
  hosts: ['chatgpt'],
  help: 'In ChatGPT\'s Apps SDK bridge, window.openai.callTool reaches a tool only when the tool sets openai/widgetAccessible: true (default false). A tool hidden from the model (ui.visibility without "model", or openai/visibility "private") exists for the widget, so without the flag its widget\'s button does nothing in ChatGPT.',
  fix: 'Set _meta["openai/widgetAccessible"]: true on tools the widget calls.',
  needs: 'a tools/list answer',
  source: docs('https://developers.openai.com/apps-sdk/reference'),
  evaluate(context) {
    if (context.tools.length === 0) return notSeen('no tools/list answer in the capture');
    const findings: Finding[] = [];
    for (const t of context.tools) {
      const meta = metaOf(t.tool);
      const appOnly = (mcpAppsVisibility(t.tool).declared && !mcpAppsVisibility(t.tool).model) || meta?.[OPENAI_VISIBILITY] === 'private';
      if (appOnly && meta?.[OPENAI_WIDGET_ACCESSIBLE] !== true) findings.push({ verdict: 'fail', message: `${t.name} is hidden from the model (called by a widget) but does not set openai/widgetAccessible: true`, evidence: { exchangeId: t.exchangeId, path: `${t.path}._meta` } });
    }
    return outcome(findings, 'widget-only tools are reachable from the widget');
  },
};

export const WIDGET_CHECKS: readonly AuditCheck[] = [templateServed, mimeType, urisAgree, cspPlacement, cspDeclared, visibility, widgetAccessible];
