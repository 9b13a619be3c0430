/**
 * The body searches the large-capture benches type, by what they look for in the bodies of a
 * capture of `exchanges` exchanges built by support/capture-traffic.ts.
 */
import { SESSIONS } from './capture-traffic.js';

export interface BodySearch {
  name: string;
  /** What a body must contain (the filter's free text). */
  needle: string;
  /** The filter as typed in the dashboard: the needle quoted (it holds quotes and a colon). */
  filter: string;
  /** Issue 42's budget for its first results (for the word no body holds: until the whole capture is searched). */
  budgetMs: number;
  /** Whether any exchange holds it. */
  found: boolean;
}

export function bodySearches(exchanges: number): BodySearch[] {
  // Request ids run 2, 3, … per session, so this id is in the 40 exchanges at the capture's middle.
  const middleId = 2 + Math.floor(exchanges / 2 / SESSIONS);
  const quoted = (needle: string) => `"${needle.replace(/["\\]/g, '\\$&')}"`;
  return [
    // One request in 50 carries this argument, from the first exchanges on.
    { name: 'first results', needle: '"limit":7}', budgetMs: 1000, found: true },
    { name: 'a value only in the middle', needle: `"id":${middleId},`, budgetMs: 2000, found: true },
    { name: 'a word no body holds', needle: 'zqxjkvbw', budgetMs: 5000, found: false },
  ].map((s) => ({ ...s, filter: quoted(s.needle) }));
}
