/**
 * What the reliability suite reads off a child mcpscope (started with support/mcpscope.ts):
 * its resident memory.
 */
import { readFileSync } from 'node:fs';

/** Resident memory of a process in bytes, now (`VmRSS`) and at its peak (`VmHWM`), from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
