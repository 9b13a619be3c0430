/**
 * Host names the user accepted for this run from the dashboard, beside `--public-url` and
 * `--allow-host`: the tap's guard reads them on every request, so an accepted tunnel's next
 * request gets through without a restart. Only the dashboard's token-guarded API adds one, on the
 * user's click (that click is the consent); nothing adds one by itself, and none outlives the run.
 *
 * Invariant: every entry is a lower-cased `Host` header value the URL parser reads as a bare host
 * (a name or address, an optional port, nothing else), at most MAX_ACCEPTED_HOSTS of them.
 */
import { isLoopbackHost } from '../../core/addresses.js';
import { parseHost } from './tap-guard.js';

export const MAX_ACCEPTED_HOSTS = 64;

export type AcceptResult = { ok: true; host: string } | { ok: false; message: string };

export class AcceptedHosts {
  private readonly hosts = new Set<string>();

  has(host: string): boolean {
    return this.hosts.has(host);
  }

  list(): string[] {
    return [...this.hosts];
  }

  accept(value: string): AcceptResult {
    const host = value.trim().toLowerCase();
    const parsed = host.length <= 300 ? parseHost(host) : undefined;
    if (parsed === undefined || host === '') return { ok: false, message: `"${value.slice(0, 100)}" is not a Host such as brave-otter.trycloudflare.com.` };
    if (isLoopbackHost(parsed.name)) return { ok: false, message: `${host} is a loopback name: the tap accepts it already.` };
    if (!this.hosts.has(host) && this.hosts.size >= MAX_ACCEPTED_HOSTS) {
      return { ok: false, message: `At most ${MAX_ACCEPTED_HOSTS} hosts can be accepted in one run; restart mcpscope with --allow-host for the ones you keep.` };
    }
    this.hosts.add(host);
    return { ok: true, host };
  }
}
