/**
 * Why no candidate of a search trained, in one line for the card, summary.json and `eureka show`:
 * the candidates counted by what stopped each (the screen's skip, a failed check, seed-runs that
 * all faulted, a step that failed before its check), and the budget or person that stopped the
 * search, if one did.
 */
import { FAILED_CHECK, SCREEN_KEPT, TASK_CODE_FAILED, type CandidateRecord, type StopRecord } from '../store/records.ts';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function nothingTrainedReason(candidates: CandidateRecord[], stop: StopRecord | null): string {
  const tried = candidates.filter((c) => c.generation > 0);
  const kinds = new Map<string, number>();
  for (const c of tried) {
    const kind = c.reason.startsWith(`${SCREEN_KEPT}: skipped`) ? 'skipped'
      : c.reason.startsWith(SCREEN_KEPT) ? 'replaced'
        : c.reason.startsWith(FAILED_CHECK) ? 'check'
          : c.seeds.length > 0 ? `faulted:${c.outcome}` : 'never';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const words = [...kinds].map(([kind, n]) => {
    if (kind === 'skipped') return `${count(n, 'was', 'were')} skipped by the screen (screen: "skip")`;
    if (kind === 'replaced') return `${count(n, 'was', 'were')} sent back by the screen and ${n === 1 ? 'its repair' : 'their repairs'} did not train`;
    if (kind === 'check') return `${count(n, 'failed its', 'failed their')} sandbox check`;
    if (kind === 'never') return `${count(n, 'was', 'were')} never checked (the step that wrote ${n === 1 ? 'it' : 'them'} failed)`;
    return `${count(n, 'ended', 'ended')} every seed-run with ${kind.slice('faulted:'.length)}`;
  });
  const stopped = stop === null ? null
    : `${stop.reason === 'budget' ? 'the budget' : 'a person'} stopped the search at generation ${stop.generation} (${stop.detail})`;
  const why = tried.length === 0 ? ['no candidate was proposed'] : words;
  return `no candidate trained: ${[...why, ...(stopped === null ? [] : [stopped])].join(', ')}${taskFault(tried)}`;
}

/** The task's own failure, once, where a check or a seed-run said so (every one says the same). */
function taskFault(candidates: CandidateRecord[]): string {
  const checked = candidates.find((c) => c.reason.startsWith(`${FAILED_CHECK}: ${TASK_CODE_FAILED}`));
  if (checked !== undefined) return `; ${checked.reason.slice(`${FAILED_CHECK}: `.length)}`;
  const trained = candidates.flatMap((c) => c.seeds).find((s) => s.reason.startsWith(TASK_CODE_FAILED));
  return trained === undefined ? '' : `; ${trained.reason}`;
}
