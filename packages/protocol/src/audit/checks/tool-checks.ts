/**
 * Checks on the server's tools as its latest tools/list declared them: what a host needs to list,
 * show and pick a tool, and the limits past which a host drops tools.
 */
import { isJsonObject } from '../../model/json-rpc.js';
import { widgetOfTool } from '../../widget/widget-declaration.js';
import type { AuditCheck, AuditContextLike, Finding } from '../audit-types.js';
import { HOST_IDS } from '../audit-types.js';
import { fieldReport, notSeen, outcome, spec } from '../check-kit.js';

const NEEDS_TOOLS = 'a tools/list answer (a host listing the tools, or `mcpscope audit --target`)';
const HINTS = ['readOnlyHint', 'destructiveHint', 'openWorldHint'] as const;
/** SEP-986 (MCP 2025-11-25): ASCII letters, digits, `_`, `-`, `.` and `/`. */
const SPEC_NAME = /^[A-Za-z0-9_./-]+$/;
/** What OpenAI-compatible model APIs accept as a function name (GitHub Copilot's check). */
const STRICT_NAME = /^[A-Za-z0-9_-]+$/;

function needTools(context: AuditContextLike) {
  return context.tools.length === 0 ? notSeen('no tools/list answer in the capture') : undefined;
}

const annotations: AuditCheck = {
  id: 'tool-annotations-explicit',
  title: 'Every tool sets readOnlyHint, destructiveHint and openWorldHint to true or false',
  group: 'tools',
  hosts: ['chatgpt'],
  help: 'OpenAI\'s app review rejects a submission when a tool\'s annotations are missing or null: each of readOnlyHint, destructiveHint and openWorldHint must be explicitly true or false on every tool (the rejection e-mail asks for exactly this). ChatGPT also asks for confirmation before tools that are not read-only.',
  fix: 'Set annotations: { readOnlyHint, destructiveHint, openWorldHint } to true or false on every tool, from what the tool really does.',
  needs: NEEDS_TOOLS,
  source: fieldReport('https://community.openai.com/t/rejected-for-annotations-do-not-appear-to-match-the-tools-behavior-with-all-hints-set-explicitly-what-else-is-expected/1413175'),
  evaluate(context) {
    const findings: Finding[] = [];
    for (const t of context.tools) {
      const a = isJsonObject(t.tool.annotations) ? t.tool.annotations : undefined;
      const missing = HINTS.filter((h) => typeof a?.[h] !== 'boolean');
      if (missing.length > 0) findings.push({ verdict: 'fail', message: `${t.name} leaves ${missing.join(', ')} unset (not true or false)`, evidence: { exchangeId: t.exchangeId, path: `${t.path}.annotations` } });
    }
    return needTools(context) ?? outcome(findings, `${context.tools.length} tools set all three hints`);
  },
};

const nameShape: AuditCheck = {
  id: 'tool-name-shape',
  title: 'Tool names are 1–64 characters of letters, digits, _ - . /',
  group: 'tools',
  hosts: HOST_IDS,
  help: 'The MCP spec (2025-11-25, tool names) says names SHOULD be 1 to 64 characters of ASCII letters, digits, underscore, dash, dot and slash. Model APIs behind the hosts reject longer names or other characters, and the whole request fails, not one tool. GitHub Copilot accepts only letters, digits, _ and - (a dot or a slash fails every prompt).',
  fix: 'Rename the tool to at most 64 characters of letters, digits, _ and - (avoid . and / for Copilot).',
  needs: NEEDS_TOOLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names'),
  evaluate(context) {
    const findings: Finding[] = [];
    for (const t of context.tools) {
      const evidence = { exchangeId: t.exchangeId, path: `${t.path}.name` };
      if (t.name.length === 0 || t.name.length > 64) findings.push({ verdict: 'fail', message: `"${t.name}" is ${t.name.length} characters (1–64 allowed)`, evidence });
      else if (!SPEC_NAME.test(t.name)) findings.push({ verdict: 'fail', message: `"${t.name}" has characters outside letters, digits, _ - . /`, evidence });
      else if (!STRICT_NAME.test(t.name)) findings.push({ verdict: 'fail', message: `"${t.name}" has . or /, which GitHub Copilot's model API refuses (github/copilot-cli#1879)`, evidence, hosts: ['vscode'] });
    }
    return needTools(context) ?? outcome(findings, `${context.tools.length} names within the rules`);
  },
};

const combinedName: AuditCheck = {
  id: 'tool-name-with-server',
  title: 'Server name + tool name fit the hosts that prefix tools with the server',
  group: 'tools',
  hosts: ['cursor', 'claude-code'],
  help: 'Cursor and Claude Code show a tool to the model under a name that includes the server\'s name. Cursor drops a tool whose server name + tool name exceeds 60 characters; Claude Code names it mcp__<server>__<tool>, and the model API refuses names over 64 characters. The server name is what the user typed in their config; the audit uses serverInfo.name from initialize as the likely one.',
  fix: 'Shorten the tool name so that it fits with a server name of about 20 characters.',
  needs: `${NEEDS_TOOLS} and the initialize answer (serverInfo.name)`,
  source: fieldReport('https://github.com/modelcontextprotocol/.github/discussions/556'),
  evaluate(context) {
    const server = context.initialize?.result && isJsonObject(context.initialize.result.serverInfo) ? context.initialize.result.serverInfo.name : undefined;
    if (typeof server !== 'string') return notSeen('no initialize answer naming the server');
    const cursor = context.profiles.find((p) => p.id === 'cursor')?.combinedNameLimit?.value;
    const claudeCode = context.profiles.find((p) => p.id === 'claude-code')?.toolNameLimit?.value;
    const findings: Finding[] = [];
    for (const t of context.tools) {
      const evidence = { exchangeId: t.exchangeId, path: `${t.path}.name` };
      if (cursor !== undefined && server.length + t.name.length > cursor) findings.push({ verdict: 'fail', message: `${server} + ${t.name} is ${server.length + t.name.length} characters (Cursor: ${cursor})`, evidence, hosts: ['cursor'] });
      const prefixed = `mcp__${server}__${t.name}`;
      if (claudeCode !== undefined && prefixed.length > claudeCode) findings.push({ verdict: 'fail', message: `${prefixed} is ${prefixed.length} characters (Claude Code: ${claudeCode})`, evidence, hosts: ['claude-code'] });
    }
    return needTools(context) ?? outcome(findings, `every name fits with server "${server}"`);
  },
};

const toolCount: AuditCheck = {
  id: 'tool-count',
  title: 'Tool count within each host\'s limit',
  group: 'tools',
  hosts: ['cursor', 'vscode'],
  help: 'Some hosts send only so many tools to the model and silently leave out the rest: Cursor 40 across all enabled servers, VS Code Copilot 128 per request (built-in tools included). The figures and their sources are in the host profiles.',
  fix: 'Expose fewer tools (merge ones that differ by a filter, or offer a read-only mode), or tell users which to disable.',
  needs: NEEDS_TOOLS,
  source: fieldReport('https://github.com/modelcontextprotocol/.github/discussions/360'),
  evaluate(context) {
    const n = context.tools.length;
    const findings: Finding[] = [];
    for (const p of context.profiles) {
      const limit = p.toolLimit?.value;
      if (limit === undefined) continue;
      if (n > limit) findings.push({ verdict: 'fail', message: `${n} tools, over ${p.name}'s ${limit} (${p.toolLimit!.url})`, evidence: { exchangeId: context.toolsListId!, path: '$.result.tools' }, hosts: [p.id] });
      else if (n > limit * 0.75) findings.push({ verdict: 'warn', message: `${n} tools use most of ${p.name}'s ${limit}, shared with every other server the user enables`, evidence: { exchangeId: context.toolsListId!, path: '$.result.tools' }, hosts: [p.id] });
    }
    return needTools(context) ?? outcome(findings, `${n} tools`);
  },
};

const descriptions: AuditCheck = {
  id: 'tool-description',
  title: 'Every tool has a description',
  group: 'tools',
  hosts: HOST_IDS,
  help: 'The model chooses tools from their names and descriptions; a tool without one is picked by guesswork or never. OpenAI\'s review also rejects tools whose descriptions do not say what they do.',
  fix: 'Give every tool a description that says what it does and when to use it.',
  needs: NEEDS_TOOLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool'),
  evaluate(context) {
    const findings: Finding[] = context.tools
      .filter((t) => typeof t.tool.description !== 'string' || t.tool.description.trim() === '')
      .map((t) => ({ verdict: 'fail' as const, message: `${t.name} has no description`, evidence: { exchangeId: t.exchangeId, path: `${t.path}.description` } }));
    return needTools(context) ?? outcome(findings, `${context.tools.length} tools described`);
  },
};

const inputSchema: AuditCheck = {
  id: 'tool-input-schema-object',
  title: 'inputSchema is an object schema',
  group: 'tools',
  hosts: HOST_IDS,
  help: 'The spec requires inputSchema to be a JSON Schema whose type is "object" (a tool without parameters declares { "type": "object" }). Hosts that pass tools to a model API fail the whole request on a tool whose schema is not an object.',
  fix: 'Declare inputSchema as { "type": "object", "properties": { … } }.',
  needs: NEEDS_TOOLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool'),
  evaluate(context) {
    const findings: Finding[] = context.tools
      .filter((t) => !isJsonObject(t.tool.inputSchema) || t.tool.inputSchema.type !== 'object')
      .map((t) => ({ verdict: 'fail' as const, message: `${t.name}'s inputSchema is ${isJsonObject(t.tool.inputSchema) ? `of type ${JSON.stringify(t.tool.inputSchema.type)}` : 'missing'}`, evidence: { exchangeId: t.exchangeId, path: `${t.path}.inputSchema` } }));
    return needTools(context) ?? outcome(findings, `${context.tools.length} object schemas`);
  },
};

const outputSchema: AuditCheck = {
  id: 'tool-output-schema',
  title: 'Tools that render a widget declare an outputSchema',
  group: 'tools',
  hosts: ['chatgpt', 'claude', 'vscode'],
  help: 'A widget renders from structuredContent; an outputSchema (MCP 2025-06-18) states its shape, lets hosts and clients validate it, and is what the audit checks captured results against.',
  fix: 'Declare outputSchema on every tool whose result a widget renders.',
  needs: NEEDS_TOOLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema'),
  evaluate(context) {
    const findings: Finding[] = context.tools
      .filter((t) => widgetOfTool(t.tool) && !isJsonObject(t.tool.outputSchema))
      .map((t) => ({ verdict: 'warn' as const, message: `${t.name} renders a widget but declares no outputSchema`, evidence: { exchangeId: t.exchangeId, path: t.path } }));
    return needTools(context) ?? outcome(findings, 'every widget tool declares its output');
  },
};

const titles: AuditCheck = {
  id: 'tool-title',
  title: 'Tools have a human-readable title',
  group: 'tools',
  hosts: ['chatgpt', 'claude', 'vscode'],
  help: 'Hosts show a tool\'s title (MCP 2025-06-18: `title`, or `annotations.title`) to the user in confirmations and tool pickers, and fall back to the raw name without one.',
  fix: 'Add a short title to each tool.',
  needs: NEEDS_TOOLS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool'),
  evaluate(context) {
    const findings: Finding[] = context.tools
      .filter((t) => typeof t.tool.title !== 'string' && !(isJsonObject(t.tool.annotations) && typeof t.tool.annotations.title === 'string'))
      .map((t) => ({ verdict: 'warn' as const, message: `${t.name} has no title`, evidence: { exchangeId: t.exchangeId, path: `${t.path}.title` } }));
    return needTools(context) ?? outcome(findings, 'every tool has a title');
  },
};

export const TOOL_CHECKS: readonly AuditCheck[] = [annotations, nameShape, combinedName, toolCount, descriptions, inputSchema, outputSchema, titles];

