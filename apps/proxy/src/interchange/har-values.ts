/** Small HAR value helpers shared by the frame entries (har-writer.ts) and door entries (door-har.ts). */
import type { HarNameValue } from './har-types.js';

export function toNameValues(headers: Record<string, string>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

export function queryOf(path: string): HarNameValue[] {
  const q = path.indexOf('?');
  if (q === -1) return [];
  return [...new URLSearchParams(path.slice(q + 1))].map(([name, value]) => ({ name, value }));
}

/** HAR times are milliseconds; three decimals keep sub-millisecond capture times readable. */
export const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;
