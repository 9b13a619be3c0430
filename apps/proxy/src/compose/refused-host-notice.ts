/**
 * The terminal's word on a refused Host: the most common reason a tunnel client (ChatGPT through
 * cloudflared) cannot connect is a tap started without `--public-url`, and the client only sees a
 * 403. One line per newly refused Host names the client, where it came from and the exact flag
 * to restart with; later refusals of the same Host print nothing (the dashboard counts them).
 *
 * Invariants: at most one line per Host per run, at most MAX_NOTICED_HOSTS lines in all (a
 * rebinding page can invent names without end), then one line saying the rest go unprinted.
 * Everything quoted from the request passes terminalText: no control character reaches the terminal.
 */
import type { IncomingMessage } from 'node:http';
import { clientLabel, terminalLine } from '@mcpscope/protocol';
import type { Refusal } from '../core/request-watch.js';

export const MAX_NOTICED_HOSTS = 32;

export function refusedHostNotices(write: (line: string) => void): (req: IncomingMessage, refusal: Refusal) => void {
  const noticed = new Set<string>();
  let full = false;
  return (req, refusal) => {
    const refused = refusal.refusedHost;
    if (!refused || noticed.has(refused.host) || full) return;
    if (noticed.size >= MAX_NOTICED_HOSTS) {
      full = true;
      write(`mcpscope: more Hosts were refused; the dashboard lists them all (Connections).`);
      return;
    }
    noticed.add(refused.host);
    const userAgent = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 120) : undefined;
    const label = clientLabel(userAgent ? { userAgent } : {});
    const who = label && userAgent && label !== userAgent ? `${label} (${userAgent})` : (userAgent ?? 'a client without a User-Agent');
    const from = req.socket.remoteAddress ?? 'an unknown address';
    write(
      terminalLine(
        `mcpscope: refused ${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]!.slice(0, 80)} from ${who} at ${from}: Host ${refused.host} is not this tap. ` +
          `If that is your tunnel, restart with ${refused.fix}, or accept the Host for this run in the dashboard (Exchanges).`,
      ),
    );
  };
}
