/**
 * Protocol checks on one message: schema validity for its revision, method and notification names
 * (including the tutorial spellings people copy), who may send what, batches outside 2025-03-26,
 * traffic the negotiated capabilities do not allow, and 2026-07-28's Mcp-* headers against the body.
 */
import type { ValidatorPort } from '../diagnostics/validator-port.js';
import { isJsonObject, type JsonObject } from '../model/json-rpc.js';
import { METHODS, NOTIFICATIONS, inRevision, methodIn, notificationIn, senderAllowed, REVISIONS, type Revision } from '../revisions/revisions.js';
import { joinPath } from '../model/json-path.js';
import { wireValue, type Finding, type ItemContext } from './item-context.js';
import { decodeHeaderValue } from './header-value.js';
import { nearMiss } from './near-miss.js';

/** Tutorial spellings and their real names (protocol reference §2.6). */
const MISSPELT: Record<string, string> = {
  'notifications/log': 'notifications/message',
  'notifications/logging': 'notifications/message',
  initialized: 'notifications/initialized',
  'notifications/initialize': 'notifications/initialized',
};

export function schemaFindings(ctx: ItemContext, validator: ValidatorPort | undefined): Finding[] {
  if (!validator || !ctx.revision || ctx.item.kind === 'invalid') return [];
  const value = wireValue(ctx.item);
  const check = { revision: ctx.revision, sender: ctx.sender, value, ...(ctx.request ? { request: ctx.request } : {}) };
  const issues = validator.validateMessage(check).filter((issue) => !(issue.path === '$.id' && idNullRequired(ctx.item)));
  return issues.map((issue): Finding => {
    if (issue.definition === 'CallToolResult' && issue.missing === 'content' && issue.path === '$.result') {
      return {
        code: 'tool-result-without-content',
        severity: 'error',
        path: joinPath(ctx.base, '$.result'),
        message: 'This tools/call result has no "content" array. Every tool result must carry content (an empty array at least); put the text mirror of structuredContent there.',
      };
    }
    const where = issue.definition ? `${issue.definition} (${ctx.revision})` : `the JSON-RPC envelope (${ctx.revision})`;
    return {
      code: issue.code,
      severity: issue.severity ?? 'error',
      path: joinPath(ctx.base, issue.path),
      message: `${issue.path} ${issue.message} It does not match ${where}; fix the sender so the message follows the schema of the negotiated revision.`,
    };
  });
}

/**
 * JSON-RPC 2.0 §5 requires id null on an error about a request whose id could not be read (a parse
 * error, an invalid request), and the SDKs send it so. The schemas' id types leave that case out;
 * the sender did what JSON-RPC asks, so it is no finding.
 */
function idNullRequired(item: ItemContext['item']): boolean {
  return item.kind === 'error' && item.id === null && (item.error.code === -32700 || item.error.code === -32600);
}

export function nameFindings(ctx: ItemContext): Finding[] {
  const { item, revision } = ctx;
  if ((item.kind !== 'request' && item.kind !== 'notification') || !revision) return [];
  const method = item.method;
  if (item.kind === 'notification' && notificationIn(method, revision) && senderAllowed(NOTIFICATIONS[method]!, ctx.sender)) return [];
  if (item.kind === 'request' && methodIn(method, revision) && senderAllowed(METHODS[method]!, ctx.sender)) return [];
  const path = joinPath(ctx.base, '$.method');
  if (item.kind === 'notification') {
    if (notificationIn(method, revision)) {
      return senderAllowed(NOTIFICATIONS[method]!, ctx.sender) ? [] : [wrongSender(method, ctx.sender, path)];
    }
    // A request's method without an id, or a reply sent as a notification: the lints say what is wrong.
    if (Object.hasOwn(METHODS, method) || ctx.namesRequest) return [];
    const fix = misspelling(method, revision) ?? nearMiss(method, specNames(NOTIFICATIONS, revision, ctx.sender));
    if (fix) return [{ code: 'notification-name', severity: 'error', path, message: `"${method}" is not an MCP notification: the real name is "${fix}". Receivers ignore the misspelt one.` }];
    return unknownName('notification', method, revision, path, NOTIFICATIONS);
  }
  if (method.startsWith('notifications/')) return []; // reported by the notification-with-id lint
  if (methodIn(method, revision)) return senderAllowed(METHODS[method]!, ctx.sender) ? [] : [wrongSender(method, ctx.sender, path)];
  const meant = Object.hasOwn(METHODS, method) ? undefined : nearMiss(method, specNames(METHODS, revision, ctx.sender));
  if (meant) {
    return [{ code: 'method-name', severity: 'error', path, message: `"${method}" is not an MCP method: the real name is "${meant}". A server answers the misspelt one with -32601 Method not found.` }];
  }
  return unknownName('method', method, revision, path, METHODS);
}

/** The names of `table` that exist in `revision` and that `sender` may send. */
function specNames(table: Record<string, { sender: 'client' | 'server' | 'both'; from?: Revision; until?: Revision }>, revision: Revision, sender: 'client' | 'server'): string[] {
  return Object.keys(table).filter((name) => inRevision(table[name]!, revision) && senderAllowed(table[name]!, sender));
}

function misspelling(method: string, revision: Revision): string | undefined {
  if (Object.hasOwn(MISSPELT, method)) return MISSPELT[method];
  const prefixed = `notifications/${method}`;
  return notificationIn(prefixed, revision) ? prefixed : undefined;
}

function unknownName(what: 'method' | 'notification', name: string, revision: Revision, path: string, table: Record<string, { from?: Revision; until?: Revision }>): Finding[] {
  if (Object.hasOwn(table, name)) {
    const revs = REVISIONS.filter((r) => inRevision(table[name]!, r));
    return [{ code: 'not-in-revision', severity: 'warning', path, message: `"${name}" does not exist in ${revision}; it belongs to ${revs.join(', ')}. One side is speaking another revision than the one negotiated.` }];
  }
  // Vendor extensions and experiments are allowed; say so quietly.
  return [{ code: what === 'method' ? 'unknown-method' : 'unknown-notification', severity: 'info', path, message: `"${name}" is not a ${what} defined by MCP ${revision}. Fine for an extension; otherwise check the spelling.` }];
}

function wrongSender(method: string, sender: 'client' | 'server', path: string): Finding {
  const other = sender === 'client' ? 'server' : 'client';
  return { code: 'wrong-direction', severity: 'error', path, message: `"${method}" is sent by the ${other}, never by the ${sender}. The ${sender} is using the wrong role.` };
}

export function batchFindings(revision: Revision | undefined): Finding[] {
  if (!revision || revision === '2025-03-26') return [];
  return [{ code: 'batch-not-allowed', severity: 'error', path: '$', message: `JSON-RPC batches (arrays) exist only in 2025-03-26; ${revision} removed them. Send each message on its own.` }];
}

/** Traffic the capabilities negotiated at initialize do not allow (legacy era). */
export function capabilityFindings(ctx: ItemContext): Finding[] {
  const s = ctx.session;
  const { item } = ctx;
  if (!s || (item.kind !== 'request' && item.kind !== 'notification')) return [];
  const need = requiredCapability(item.method, ctx.sender);
  if (!need) return [];
  const caps = need.side === 'server' ? s.serverCapabilities : s.clientCapabilities;
  if (!caps) return [];
  let node: unknown = caps;
  for (const key of need.path) node = isJsonObject(node) ? node[key] : undefined;
  const ok = need.flag ? node === true : node !== undefined;
  if (ok) return [];
  const capability = need.path.join('.') + (need.flag ? ' = true' : '');
  return [{ code: 'capability-not-negotiated', severity: 'warning', path: joinPath(ctx.base, '$.method'), message: `"${item.method}" needs the ${need.side} capability "${capability}", which the ${need.side} did not declare at initialize. Declare it, or stop sending this.` }];
}

function requiredCapability(method: string, sender: 'client' | 'server'): { side: 'client' | 'server'; path: string[]; flag?: boolean } | undefined {
  if (sender === 'server') {
    if (method === 'notifications/tools/list_changed') return { side: 'server', path: ['tools', 'listChanged'], flag: true };
    if (method === 'notifications/prompts/list_changed') return { side: 'server', path: ['prompts', 'listChanged'], flag: true };
    if (method === 'notifications/resources/list_changed') return { side: 'server', path: ['resources', 'listChanged'], flag: true };
    if (method === 'notifications/resources/updated') return { side: 'server', path: ['resources', 'subscribe'], flag: true };
    if (method === 'notifications/message') return { side: 'server', path: ['logging'] };
    if (method === 'sampling/createMessage') return { side: 'client', path: ['sampling'] };
    if (method === 'elicitation/create') return { side: 'client', path: ['elicitation'] };
    if (method === 'roots/list') return { side: 'client', path: ['roots'] };
    return undefined;
  }
  if (method === 'notifications/roots/list_changed') return { side: 'client', path: ['roots', 'listChanged'], flag: true };
  if (method.startsWith('tools/')) return { side: 'server', path: ['tools'] };
  if (method === 'resources/subscribe' || method === 'resources/unsubscribe') return { side: 'server', path: ['resources', 'subscribe'], flag: true };
  if (method.startsWith('resources/')) return { side: 'server', path: ['resources'] };
  if (method.startsWith('prompts/')) return { side: 'server', path: ['prompts'] };
  if (method === 'completion/complete') return { side: 'server', path: ['completions'] };
  if (method === 'logging/setLevel') return { side: 'server', path: ['logging'] };
  return undefined;
}

/** 2026-07-28: Mcp-Method / Mcp-Name / MCP-Protocol-Version headers must agree with the body. */
export function headerFindings(ctx: ItemContext): Finding[] {
  const { item, frame } = ctx;
  const headers = frame.http?.requestHeaders;
  if (ctx.revision !== '2026-07-28' || !headers || frame.direction !== 'c2s' || frame.transport === 'replay') return [];
  if (item.kind !== 'request' && item.kind !== 'notification') return [];
  const out: Finding[] = [];
  const headerMethod = decodeHeaderValue(headers['mcp-method']);
  if (headerMethod === undefined) {
    out.push({ code: 'header-missing', severity: 'error', path: joinPath(ctx.base, '$.method'), message: 'A 2026-07-28 POST must carry an Mcp-Method header equal to the body\'s "method"; servers answer 400 without it.' });
  } else if (headerMethod !== item.method) {
    out.push({ code: 'header-mismatch', severity: 'error', path: joinPath(ctx.base, '$.method'), message: `The Mcp-Method header says "${headerMethod}" but the body's method is "${item.method}". Servers reject this with 400 / -32020; recompute the header from the body.` });
  }
  const nameKey = item.method === 'resources/read' ? 'uri' : item.method === 'tools/call' || item.method === 'prompts/get' ? 'name' : undefined;
  const bodyName = nameKey ? (item.params as JsonObject | undefined)?.[nameKey] : undefined;
  if (nameKey && typeof bodyName === 'string') {
    const headerName = decodeHeaderValue(headers['mcp-name']);
    if (headerName === undefined) {
      out.push({ code: 'header-missing', severity: 'error', path: joinPath(ctx.base, `$.params.${nameKey}`), message: `${item.method} needs an Mcp-Name header equal to params.${nameKey} in 2026-07-28.` });
    } else if (headerName !== bodyName) {
      out.push({ code: 'header-mismatch', severity: 'error', path: joinPath(ctx.base, `$.params.${nameKey}`), message: `The Mcp-Name header says "${headerName}" but params.${nameKey} is "${bodyName}". Recompute the header from the body.` });
    }
  }
  const metaVersion = isJsonObject(item.params?._meta) ? item.params._meta['io.modelcontextprotocol/protocolVersion'] : undefined;
  const headerVersion = headers['mcp-protocol-version'];
  if (typeof metaVersion === 'string' && headerVersion !== undefined && headerVersion !== metaVersion) {
    out.push({ code: 'header-mismatch', severity: 'error', path: joinPath(ctx.base, '$.params._meta'), message: `MCP-Protocol-Version is "${headerVersion}" but _meta says "${metaVersion}"; they must be equal.` });
  }
  return out;
}
