/**
 * What the checks read, derived once from the evidence: the server's tools (the latest tools/list
 * of the capture, all its pages), its initialize answer, its widget reads and tool calls.
 */
import { isJsonObject, type JsonObject } from '../model/json-rpc.js';
import type { AuditCall, AuditContextLike, AuditEvidence, AuditOptions, HostProfileLike, ListedTool } from './audit-types.js';

export class AuditContext implements AuditContextLike {
  readonly tools: ListedTool[];
  readonly toolsListId: string | undefined;
  readonly initialize: AuditCall | undefined;
  readonly resourceReads: AuditCall[];
  readonly toolCalls: AuditCall[];
  readonly listedResources: JsonObject[];

  constructor(
    readonly evidence: AuditEvidence,
    readonly options: AuditOptions,
    readonly profiles: readonly HostProfileLike[],
  ) {
    const ok = (method: string) => evidence.calls.filter((c) => c.method === method && c.result !== undefined);
    const lists = ok('tools/list');
    const latest = lists[lists.length - 1];
    // A paged list answers in several calls of one session; the latest session's pages make the list.
    const pages = latest ? lists.filter((c) => c.sessionKey === latest.sessionKey) : [];
    const byName = new Map<string, ListedTool>();
    for (const page of pages) {
      const tools = Array.isArray(page.result!.tools) ? page.result!.tools : [];
      tools.forEach((tool, i) => {
        if (!isJsonObject(tool)) return;
        const name = typeof tool.name === 'string' ? tool.name : '';
        byName.set(name || `#${i}`, { tool, name, exchangeId: page.id, path: `$.result.tools[${i}]` });
      });
    }
    this.tools = [...byName.values()];
    this.toolsListId = latest?.id;
    const inits = ok('initialize');
    this.initialize = inits[inits.length - 1];
    this.resourceReads = ok('resources/read');
    this.toolCalls = evidence.calls.filter((c) => c.method === 'tools/call');
    this.listedResources = ok('resources/list').flatMap((c) => (Array.isArray(c.result!.resources) ? c.result!.resources.filter(isJsonObject) : []));
  }
}
