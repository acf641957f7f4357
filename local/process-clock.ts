/**
 * The CPU time a process has used, as Linux counts it in /proc/PID/stat (user and system time of
 * all its threads). A Lambda has its vCPU to itself, so its timeout is the time its work takes on
 * that CPU; here the workers share the machine's cores with everything else on it, and only the
 * CPU time each used is what the same work would have taken on Lambda.
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc's times: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** Seconds of CPU the process has used so far; undefined where /proc cannot tell (not Linux, or the process is gone). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which sits in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
