/** The few phrases the Markdown and the HTML pack say alike (plain text; each format escapes it). */
import type { ExchangeStatus } from '@mcpscope/protocol';
import type { EvidenceFrame, EvidenceParty } from './evidence-document.js';

export function time(ts: number): string {
  return new Date(ts).toISOString();
}

export function statusWords(status: ExchangeStatus): string {
  return status.replace(/_/g, ' ');
}

/** `name 1.2.3 (title) · User-Agent …`, or `unknown` when the peer never said. */
export function describeParty(party: EvidenceParty): string {
  const info = party.info ?? {};
  const name = [info.name, info.version].filter((v) => typeof v === 'string').join(' ');
  const title = typeof info.title === 'string' && info.title !== info.name ? ` (${info.title})` : '';
  const parts = [name ? `${name}${title}` : '', party.label && party.label !== info.name && party.label !== name ? `known as ${party.label}` : '', party.userAgent ? `User-Agent ${party.userAgent}` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'unknown';
}

/** `client → server, data, http-json, POST /mcp → 200, 12:00:00.000Z` and its role. */
export function describeFrame(f: EvidenceFrame): string {
  const who = f.direction === 'c2s' ? 'client → server' : 'server → client';
  const http = f.http ? `, ${f.http.method} ${f.http.path}${f.http.status !== undefined ? ` → ${f.http.status}` : ''}` : '';
  return `${who}, ${f.kind}, ${f.transport}${http}, ${time(f.ts)}${f.role === 'control-replay' ? ', control replay' : ''}`;
}
