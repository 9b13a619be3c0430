/**
 * Checks on the origin a host serves the widget from: the `ui.domain` the host will accept, the
 * dedicated domain ChatGPT's submission asks for, and whether the server's own endpoints let that
 * origin in (CORS) when the widget fetches them.
 */
import { requestHeader, responseHeader } from '../../door/door-record.js';
import { OPENAI_WIDGET_DOMAIN } from '../../widget/widget-resource.js';
import type { AuditCheck, Finding, HostId } from '../audit-types.js';
import { fieldReport, notSeen, outcome, spec, uiOf } from '../check-kit.js';
import { claudeWidgetDomain, CLAUDE_WIDGET_SUFFIX, widgetOriginMatcher } from '../widget-origin.js';
import { contentMeta, widgetReads } from './widget-reads.js';

const claudeDomain: AuditCheck = {
  id: 'widget-domain-claude',
  title: 'A declared ui.domain is the one Claude computes',
  group: 'widgets',
  hosts: ['claude'],
  help: 'Claude serves a widget from {first 32 hex of sha256(connector URL)}.claudemcpcontent.com and refuses a template whose _meta.ui.domain is anything else ("ui.domain validation failed"), so the widget does not render. The connector URL is what the user typed: a trailing slash or another spelling of the host gives another hash.',
  fix: 'Leave ui.domain out, or compute it per request from the URL the client called: sha256(url).hex.slice(0, 32) + ".claudemcpcontent.com".',
  needs: 'the widget\'s resources/read, and the server URL (from --target, or a host\'s requests at the tap)',
  source: fieldReport('https://github.com/alpic-ai/skybridge/issues/704'),
  evaluate(context) {
    if (context.tools.length === 0) return notSeen('no tools/list answer in the capture');
    const reads = widgetReads(context).filter((r) => r.content);
    const declared = reads.filter((r) => typeof uiOf(contentMeta(r))?.domain === 'string');
    if (declared.length === 0) return { verdict: 'pass', findings: [], summary: reads.length ? 'no template declares ui.domain' : 'no widget template read' };
    const url = context.options.serverUrl;
    const expected = url ? claudeWidgetDomain(url) : undefined;
    const findings: Finding[] = [];
    for (const r of declared) {
      const domain = String(uiOf(contentMeta(r))!.domain);
      const evidence = { exchangeId: r.read!.id, path: `${r.contentPath}._meta.ui.domain` };
      if (expected && domain !== expected) findings.push({ verdict: 'fail', message: `${r.uri} declares ui.domain "${domain}"; Claude expects "${expected}" for ${url}`, evidence });
      else if (!expected && !domain.endsWith(CLAUDE_WIDGET_SUFFIX)) findings.push({ verdict: 'fail', message: `${r.uri} declares ui.domain "${domain}", not of Claude's form {hash}${CLAUDE_WIDGET_SUFFIX}`, evidence });
    }
    return outcome(findings, expected ? `ui.domain is ${expected}` : 'ui.domain has Claude\'s form (pass --server-url to check its hash)');
  },
};

const submissionDomain: AuditCheck = {
  id: 'widget-domain-submission',
  title: 'Widget templates declare a dedicated domain (ChatGPT submission)',
  group: 'widgets',
  hosts: ['chatgpt'],
  help: 'ChatGPT\'s app configuration warns "Widget domain is not set for this template. A unique domain is required for app submission." when the template declares no _meta.ui.domain (or openai/widgetDomain). Checked when you say you will submit (--submit).',
  fix: 'Declare a unique _meta.ui.domain on the template resource before submitting.',
  needs: 'the widget\'s resources/read',
  source: fieldReport('https://github.com/Waishnav/devspace/issues/53'),
  evaluate(context) {
    if (!context.options.submitting) return { verdict: 'pass', findings: [], summary: 'only checked with --submit' };
    if (context.tools.length === 0) return notSeen('no tools/list answer in the capture');
    const reads = widgetReads(context).filter((r) => r.content);
    if (reads.length === 0) return widgetReads(context).length ? notSeen('no widget template read') : { verdict: 'pass', findings: [], summary: 'no tool declares a widget' };
    const findings: Finding[] = reads
      .filter((r) => typeof uiOf(contentMeta(r))?.domain !== 'string' && typeof contentMeta(r)?.[OPENAI_WIDGET_DOMAIN] !== 'string')
      .map((r) => ({ verdict: 'fail' as const, message: `${r.uri} declares no widget domain`, evidence: { exchangeId: r.read!.id, path: `${r.contentPath}._meta` } }));
    return outcome(findings, 'every template declares its domain');
  },
};

const widgetCors: AuditCheck = {
  id: 'widget-origin-cors',
  title: 'The server\'s endpoints allow the widget\'s origin (CORS)',
  group: 'widgets',
  hosts: ['chatgpt', 'claude'],
  help: 'A widget runs on the host\'s sandbox origin (ChatGPT: a subdomain of oaiusercontent.com; Claude: {hash}.claudemcpcontent.com), not the server\'s. When it fetches the server\'s own endpoints, the browser needs Access-Control-Allow-Origin naming that origin; without it every fetch fails and the widget renders empty. The audit reads the requests that came to the tap with such an Origin.',
  fix: 'Add the host\'s widget origin (see the finding) to the CORS allowlist of the endpoints the widget fetches.',
  needs: 'a request from a widget running in ChatGPT or Claude through the tap (its Origin header)',
  source: spec('https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#ui-resource-format'),
  evaluate(context) {
    const findings: Finding[] = [];
    let seen = 0;
    for (const host of ['chatgpt', 'claude'] as const satisfies readonly HostId[]) {
      const matches = widgetOriginMatcher(host, context.options.serverUrl);
      for (const r of context.evidence.door) {
        const origin = requestHeader(r, 'origin');
        if (!origin || !matches(origin) || r.answer !== 'upstream') continue;
        seen++;
        // Through the tap a browser client gets the tap's CORS; the host's browser gets the server's.
        const allowed = r.upstreamCors ? r.upstreamCors.allowOrigin : responseHeader(r, 'access-control-allow-origin');
        const path = r.upstreamCors ? 'upstreamCors.allowOrigin' : 'responseHeaders["access-control-allow-origin"]';
        if (allowed !== '*' && allowed !== origin) findings.push({ verdict: 'fail', message: `${r.method} ${r.path} from ${origin}: the server answered ${allowed ? `Access-Control-Allow-Origin: ${allowed}` : 'with no Access-Control-Allow-Origin'}`, evidence: { doorRecordId: r.id, path }, hosts: [host] });
      }
    }
    if (seen === 0) return notSeen('no request from a widget origin reached the server through the tap');
    return outcome(findings, `${seen} widget requests allowed`);
  },
};

export const ORIGIN_CHECKS: readonly AuditCheck[] = [claudeDomain, submissionDomain, widgetCors];
