/**
 * The Hosts the tap's guard refused, one entry per Host, from the door records the dashboard
 * holds (one record per Host and Origin pair, counted): who sent them (the client's label from its
 * User-Agent), from which addresses and pages (Origin), how many, and the flag that lets the Host
 * in. Hosts the user accepted for this run are left out: their next request gets through.
 */
import { clientLabel, type DoorRecord } from '@mcpscope/protocol';

export interface RefusedHostView {
  host: string;
  /** `--public-url https://HOST` on a loopback tap, else `--allow-host NAME`. */
  fix: string;
  /** "ChatGPT (openai-mcp/1.0.0)", the User-Agent, or undefined when none was sent. */
  client?: string;
  count: number;
  /** Remote addresses the refused requests came from (a tunnel's is loopback). */
  addresses: string[];
  /** Origins the refused requests sent: a web page's, never a tunnel client's. */
  origins: string[];
  lastTs: number;
}

export function refusedHosts(records: Iterable<DoorRecord>, accepted: ReadonlySet<string>): RefusedHostView[] {
  const byHost = new Map<string, RefusedHostView>();
  for (const r of records) {
    const refused = r.refusals?.refusedHost;
    if (!refused || accepted.has(refused.host)) continue;
    let view = byHost.get(refused.host);
    if (!view) {
      view = { host: refused.host, fix: refused.fix, count: 0, addresses: [], origins: [], lastTs: 0 };
      byHost.set(refused.host, view);
    }
    view.count += r.refusals!.count;
    view.lastTs = Math.max(view.lastTs, r.refusals!.lastTs);
    if (view.client === undefined && r.userAgent !== undefined) {
      const label = clientLabel({ userAgent: r.userAgent });
      view.client = label && label !== r.userAgent ? `${label} (${r.userAgent})` : r.userAgent;
    }
    for (const s of r.refusals!.samples) if (!view.addresses.includes(s.address)) view.addresses.push(s.address);
    const origin = r.refusals!.origin;
    if (origin !== undefined && !view.origins.includes(origin)) view.origins.push(origin);
  }
  return [...byHost.values()].sort((a, b) => b.lastTs - a.lastTs);
}
