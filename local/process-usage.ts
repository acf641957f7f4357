/**
 * What a worker process uses, as Linux counts it in /proc, for the pool's caps: its resident memory,
 * and the CPU time it has used (user and system time of all its threads). A Lambda has its vCPU to
 * itself, so its timeout is the time its work takes on that CPU; here the workers share the
 * machine's cores with everything else on it, and only the CPU time each used is what the same
 * work would have taken on Lambda.
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc's times: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * The fields of /proc/PID/stat after the command name (which sits in parentheses and may itself
 * hold spaces), its state first; undefined where /proc cannot tell (not Linux, or the process is gone).
 */
export function statFields(pid: number | undefined): string[] | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Seconds of CPU the process has used so far; undefined where /proc cannot tell. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
  const ticks = fields === undefined ? Number.NaN : Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks / TICKS_PER_SECOND : undefined;
}

/** Resident memory of a process in MB (Linux /proc); 0 where it cannot be read. */
export function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
