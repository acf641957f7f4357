/**
 * The processes that hold a child's output pipes, found through /proc (Linux, as on Lambda): a
 * command's background processes, also one that left its process group with `setsid`, which a
 * kill of the group misses. Elsewhere there is no /proc: nothing is found, and the caller stops
 * reading instead.
 */
import { readdirSync, readlinkSync } from 'node:fs';

/** The identities of a running process's standard output and error ("socket:[123]", "pipe:[456]"). */
export function pipesOf(pid: number | undefined): string[] {
  if (pid === undefined) return [];
  return [1, 2].flatMap((fd) => {
    try { return [readlinkSync(`/proc/${pid}/fd/${fd}`)]; } catch { return []; }
  });
}

/** SIGKILLs every process (but this one) that has one of these pipes open. */
export function killPipeHolders(pipes: readonly string[]): void {
  if (pipes.length === 0) return;
  const wanted = new Set(pipes);
  let pids: string[];
  try { pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid); } catch { return; }
  for (const pid of pids) {
    let fds: string[];
    try { fds = readdirSync(`/proc/${pid}/fd`); } catch { continue; }
    const holds = fds.some((fd) => { try { return wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`)); } catch { return false; } });
    if (holds) {
      try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone meanwhile */ }
    }
  }
}
