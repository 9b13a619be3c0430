/** A process's CPU time from /proc (Linux). */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of each thread of a process, in ms, by thread id (empty where /proc is not available). */
export function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const ms = statCpuMs(`/proc/${pid}/task/${tid}/stat`);
    if (ms !== undefined) out.set(tid, ms);
  }
  return out;
}

/** utime + stime of a process, in ms (undefined where /proc is not available). */
export function cpuMs(pid: number): number | undefined {
  return statCpuMs(`/proc/${pid}/stat`);
}

function statCpuMs(file: string): number | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
