/**
 * A process's memory from Linux's /proc: resident set now (VmRSS) and its peak (VmHWM), which the
 * kernel tracks between samples, so a short spike is not missed. Writing 5 to clear_refs resets
 * the peak to the current RSS (Linux ≥ 4.0; needs the same user or root).
 */
import { readFileSync, writeFileSync } from 'node:fs';

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

export const rssMb = (pid: number) => statusKb(pid, 'VmRSS') / 1024;
export const peakRssMb = (pid: number) => statusKb(pid, 'VmHWM') / 1024;

/** Resets the peak to the current RSS; false when the kernel refuses (then peaks are since start). */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system, in clock ticks) the process has used so far. */
function cpuTicks(pid: number): number {
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the process has used no CPU for `quietMs` (at most `maxMs`): work that a proxy does
 * after the client has its answer (mcpscope stores the frame after forwarding it) still counts.
 */
export async function settle(pid: number, quietMs = 300, maxMs = 60_000): Promise<void> {
  const end = performance.now() + maxMs;
  let last = cpuTicks(pid);
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = cpuTicks(pid);
    if (now === last) return;
    last = now;
  }
}
