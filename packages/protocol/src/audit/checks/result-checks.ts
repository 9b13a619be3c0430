/**
 * Checks on captured tools/call results: what the model reads (content), what the widget reads
 * (structuredContent), and whether both match what the tool declared.
 */
import { isJsonObject, type JsonObject } from '../../model/json-rpc.js';
import type { AuditCall, AuditCheck, AuditContextLike, Finding } from '../audit-types.js';
import { HOST_IDS } from '../audit-types.js';
import { docs, notSeen, outcome, spec, walkKeys } from '../check-kit.js';

const NEEDS_CALLS = 'a successful tools/call (call the tools from a host, or from the dashboard)';
/** ContentBlock types of the MCP schema (2025-06-18 onward). */
const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);
/** Member names of ids and telemetry a model has no use for and reads verbatim. */
const INTERNAL_KEY = /^(_?internal[_-]?id|trace[_-]?id|span[_-]?id|request[_-]?id|correlation[_-]?id|telemetry|debug|_debug|_internal|stack[_-]?trace|x[_-]request[_-]id)$/i;

function answered(context: AuditContextLike): AuditCall[] {
  return context.toolCalls.filter((c) => c.result !== undefined && c.result.isError !== true);
}

function toolName(call: AuditCall): string {
  return typeof call.params?.name === 'string' ? call.params.name : '(unnamed tool)';
}

const contentPresent: AuditCheck = {
  id: 'result-content',
  title: 'Results give the model content to read',
  group: 'results',
  hosts: HOST_IDS,
  help: 'The model reads a result\'s content; structuredContent is for the widget and for clients that read it. The spec says a tool returning structuredContent SHOULD also return it serialized as a text block, and hosts that read only content (most coding hosts) see nothing otherwise.',
  fix: 'Return at least one text block in content, a short summary or the JSON of structuredContent.',
  needs: NEEDS_CALLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content'),
  evaluate(context) {
    const calls = answered(context);
    if (calls.length === 0) return notSeen('no successful tools/call in the capture');
    const findings: Finding[] = [];
    for (const c of calls) {
      const content = c.result!.content;
      const empty = !Array.isArray(content) || content.length === 0;
      if (!empty) continue;
      const structured = 'structuredContent' in c.result!;
      findings.push({ verdict: structured ? 'warn' : 'fail', message: `${toolName(c)} answered with ${Array.isArray(content) ? 'an empty content array' : 'no content'}${structured ? ' (structuredContent only: the model of hosts that read content sees nothing)' : ''}`, evidence: { exchangeId: c.id, path: '$.result.content' }, ...(structured ? { hosts: ['claude-code', 'cursor', 'vscode'] } : {}) });
    }
    return outcome(findings, `${calls.length} results carry content`);
  },
};

const contentTypes: AuditCheck = {
  id: 'result-content-types',
  title: 'Content blocks are of the spec\'s types',
  group: 'results',
  hosts: HOST_IDS,
  help: 'A content block is text, image, audio, resource_link or resource; there is no "json", "html" or "markdown" type. Hosts validate results against the schema and drop or refuse the whole result when a block has another type.',
  fix: 'Send JSON as a text block (and in structuredContent), never as { "type": "json" }.',
  needs: NEEDS_CALLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result'),
  evaluate(context) {
    const calls = context.toolCalls.filter((c) => c.result !== undefined);
    if (calls.length === 0) return notSeen('no tools/call result in the capture');
    const findings: Finding[] = [];
    for (const c of calls) {
      const content = Array.isArray(c.result!.content) ? c.result!.content : [];
      content.forEach((block, i) => {
        const type = isJsonObject(block) ? block.type : undefined;
        if (typeof type !== 'string' || !CONTENT_TYPES.has(type)) findings.push({ verdict: 'fail', message: `${toolName(c)} sent a content block of type ${JSON.stringify(type ?? null)}`, evidence: { exchangeId: c.id, path: `$.result.content[${i}].type` } });
      });
    }
    return outcome(findings, `${calls.length} results, every block of a spec type`);
  },
};

const matchesSchema: AuditCheck = {
  id: 'structured-content-schema',
  title: 'structuredContent matches the tool\'s outputSchema',
  group: 'results',
  hosts: HOST_IDS,
  help: 'When a tool declares an outputSchema, the spec says the server MUST return structuredContent that conforms to it, and clients SHOULD validate it: an SDK client rejects a result that does not, and the widget renders from a shape it was not written for.',
  fix: 'Return structuredContent that matches outputSchema (or correct the schema).',
  needs: 'a successful tools/call of a tool that declares an outputSchema',
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema'),
  evaluate(context) {
    const schemas = new Map(context.tools.filter((t) => isJsonObject(t.tool.outputSchema)).map((t) => [t.name, t.tool.outputSchema as JsonObject]));
    const calls = answered(context).filter((c) => schemas.has(toolName(c)));
    if (calls.length === 0) return notSeen('no successful call of a tool that declares an outputSchema');
    const findings: Finding[] = [];
    for (const c of calls) {
      const name = toolName(c);
      if (!('structuredContent' in c.result!)) {
        findings.push({ verdict: 'fail', message: `${name} declares an outputSchema but its result has no structuredContent`, evidence: { exchangeId: c.id, path: '$.result' } });
        continue;
      }
      const check = context.options.schemaCheck?.(schemas.get(name)!, c.result!.structuredContent!);
      if (check && !check.ok) findings.push({ verdict: 'fail', message: `${name}'s structuredContent does not match its outputSchema: ${check.message}`, evidence: { exchangeId: c.id, path: `$.result.structuredContent${check.path && check.path !== '$' ? check.path.replace(/^\$/, '') : ''}` } });
    }
    return outcome(findings, `${calls.length} results match their schema`);
  },
};

const internalIds: AuditCheck = {
  id: 'structured-content-internal',
  title: 'No telemetry or internal ids in structuredContent',
  group: 'results',
  hosts: ['chatgpt', 'claude', 'vscode'],
  help: 'The model reads structuredContent verbatim, as it reads content: trace ids, request ids and debug data cost context, can be repeated to the user, and leak internals. Widget-only data belongs in the result\'s _meta, which the model does not see.',
  fix: 'Move ids and telemetry out of structuredContent (into _meta, or drop them).',
  needs: NEEDS_CALLS,
  source: docs('https://developers.openai.com/apps-sdk/reference'),
  evaluate(context) {
    const calls = answered(context).filter((c) => 'structuredContent' in c.result!);
    if (calls.length === 0) return notSeen('no result with structuredContent in the capture');
    const findings: Finding[] = [];
    for (const c of calls) {
      walkKeys(c.result!.structuredContent, '$.result.structuredContent', (key, path) => {
        if (INTERNAL_KEY.test(key)) findings.push({ verdict: 'warn', message: `${toolName(c)} puts "${key}" in structuredContent, which the model reads`, evidence: { exchangeId: c.id, path } });
      });
    }
    return outcome(findings, `${calls.length} results free of internal ids`);
  },
};

/** Claude Code counts tokens with its own tokenizer; the audit estimates them, so it only warns. */
const CHARS_PER_TOKEN = 4;

const resultSize: AuditCheck = {
  id: 'result-size',
  title: 'Results fit the hosts\' output limits',
  group: 'results',
  hosts: ['claude-code'],
  help: 'Claude Code warns when an MCP tool\'s output passes 10,000 tokens and does not hand the model more than MAX_MCP_OUTPUT_TOKENS (25,000 by default): a larger output is refused or saved to a file the model only gets a pointer to. The audit estimates tokens at 4 characters each, so it warns rather than fails. The figures are in the host profile. No host publishes a size limit for structuredContent, so it is not judged on its own.',
  fix: 'Page or filter large results (a limit and a cursor argument), and send the model a summary rather than every row.',
  needs: NEEDS_CALLS,
  source: docs('https://code.claude.com/docs/en/mcp'),
  evaluate(context) {
    const calls = context.toolCalls.filter((c) => c.result !== undefined);
    if (calls.length === 0) return notSeen('no tools/call result in the capture');
    const findings: Finding[] = [];
    let largest = 0;
    for (const c of calls) {
      const tokens = Math.ceil(JSON.stringify(c.result!.content ?? []).length / CHARS_PER_TOKEN);
      largest = Math.max(largest, tokens);
      for (const p of context.profiles) {
        const warnAt = p.resultTokenWarn?.value;
        const limit = p.resultTokenLimit?.value;
        if (warnAt === undefined || tokens <= warnAt) continue;
        const over = limit !== undefined && tokens > limit ? `${p.name}'s limit of ${limit.toLocaleString('en-US')}` : `the ${warnAt.toLocaleString('en-US')} at which ${p.name} warns`;
        findings.push({ verdict: 'warn', message: `${toolName(c)} returned about ${tokens.toLocaleString('en-US')} tokens of content (estimated), past ${over}`, evidence: { exchangeId: c.id, path: '$.result.content' }, hosts: [p.id] });
      }
    }
    return outcome(findings, `largest result about ${largest.toLocaleString('en-US')} tokens`);
  },
};

export const RESULT_CHECKS: readonly AuditCheck[] = [contentPresent, contentTypes, matchesSchema, internalIds, resultSize];
