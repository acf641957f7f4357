/**
 * Racing inside a generation (successive halving, the core of Hyperband): the candidates that
 * passed their check train to the first rung, a small share of the budget; at each rung they are
 * ranked by the task's rank (success on the evaluation episodes, then the task's progress, its
 * tie-break, then how early they learned), the top 1/eta go on from their checkpoints to the next
 * rung, and the others stop there with the rung's results as theirs (outcome 'stopped'), but only
 * those clearly behind (race-standings.ts): where none has succeeded yet, that is progress lower
 * beyond its seeds' spread, never a reward's return. The last rung is the full budget, so the
 * generation's best is always a fully trained reward. Without racing there is one rung, the budget, and Promote
 * only hands every seed-run on.
 */
import type { PromoteEvent, RaceState, SearchSettings } from '../shared/search/contracts.ts';
import { defaultChunkSteps } from '../shared/search/chunk-size.ts';
import type { RaceRecord } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import type { SeedSummary, SeedTask } from '../shared/search/types.ts';
import type { Task } from '../../tasks/contract.ts';
import { getTask } from '../../tasks/registry.ts';
import { goingOn, rank } from './race-standings.ts';

import { raceSchedule } from '../shared/search/race-schedule.ts';

/** The first rung's seed-runs: every candidate that passed its check, on the search's seeds. */
export function firstRung(generation: number, tasks: SeedTask[], schedule: number[]): RaceState {
  return {
    generation, rung: 1, rungs: schedule.length, finished: [], more: true,
    tasks: tasks.map((t) => ({ ...t, targetSteps: schedule[0] })),
  };
}

/** "Promote": rank the rung, hand the best on to the next rung, stop the rest there; the rung is recorded. */
export async function promote(store: SearchStore, event: PromoteEvent): Promise<RaceState> {
  const meta = await store.meta(event.searchId);
  const { state, record } = promoteRung(meta.config, getTask(meta.config.task), event);
  await store.putRaceRung(event.searchId, record.base, record.rung);
  return state;
}

/** Promote's decision, a pure function of the search's configuration and the rung's results. */
export function promoteRung(config: SearchSettings, task: Task, event: PromoteEvent): {
  state: RaceState; record: { base: Omit<RaceRecord, 'rungs'>; rung: RaceRecord['rungs'][number] };
} {
  const schedule = raceSchedule(config, task);
  const rungs = schedule.length;
  const steps = schedule[event.rung - 1];
  const last = event.rung >= rungs;
  const standings = rank(event.results, event.finished, task.tieBreak, event.generation, config.evalEpisodes)
    .filter((s) => s.trainedSeeds > 0);
  const eta = config.racing === false ? 1 : config.racing.eta;
  const promoted = last ? new Set<string>() : goingOn(standings, eta);
  // The last one left needs no more ranking: it goes straight on to the budget.
  let nextRung = promoted.size === 1 ? rungs : event.rung + 1;

  let finished = [...event.finished];
  let next: SeedTask[] = [];
  for (const s of event.results) {
    if (s.outcome !== 'trained' || last) finished.push(s);
    else if (promoted.has(s.candidateId)) next.push(nextRungTask(config, event, s, schedule[nextRung - 1]));
    else finished.push(stoppedSummary(s, event.rung, rungs, steps, config.steps, standings.findIndex((c) => c.candidateId === s.candidateId) + 1, standings.length));
  }
  // Every finalist faulted before it reached the budget or there: the next in line trains on from
  // its checkpoint, so the generation's best is still a reward trained to the budget, never a stopped one.
  const heir = next.length === 0 && !finished.some((s) => s.outcome === 'trained') ? nextInLine(finished, task, config, event.generation) : null;
  if (heir !== null) {
    next = finished.filter((s) => s.candidateId === heir && s.outcome === 'stopped').map((s) => nextRungTask(config, event, s, config.steps));
    finished = finished.filter((s) => !(s.candidateId === heir && s.outcome === 'stopped'));
    nextRung = rungs;
  }
  const record = {
    base: { generation: event.generation, eta, schedule },
    rung: {
      rung: event.rung, steps,
      standings: standings.map(({ candidateId, success, progress, meanSuccessSteps, meanReturn, trainSuccessArea }) =>
        ({ candidateId, success, progress: progress ?? null, meanSuccessSteps, meanReturn, trainSuccessArea: trainSuccessArea ?? null, promoted: promoted.has(candidateId) })),
    },
  };
  return { state: { generation: event.generation, rung: nextRung, rungs, tasks: next, finished, more: next.length > 0 }, record };
}

/** The stopped candidate that got furthest, the best of those at that rung; null when none is left. */
function nextInLine(finished: SeedSummary[], task: Task, config: SearchSettings, generation: number): string | null {
  const stopped = finished.filter((s) => s.outcome === 'stopped');
  if (stopped.length === 0) return null;
  const furthest = Math.max(...stopped.map((s) => s.stepsTrained));
  const atRung = stopped.filter((s) => s.stepsTrained === furthest).map((s): SeedSummary => ({ ...s, outcome: 'trained' }));
  return rank(atRung, finished, task.tieBreak, generation, config.evalEpisodes)[0]?.candidateId ?? null;
}

function nextRungTask(config: SearchSettings, event: PromoteEvent, s: SeedSummary, targetSteps: number): SeedTask {
  return {
    searchId: event.searchId, task: config.task, generation: event.generation, candidateId: s.candidateId, seed: s.seed,
    budget: { steps: config.steps, evalEpisodes: config.evalEpisodes }, targetSteps, chunkSteps: chunkStepsOf(config),
  };
}

function stoppedSummary(s: SeedSummary, rung: number, rungs: number, steps: number, budget: number, place: number, of: number): SeedSummary {
  const share = Math.round((100 * steps) / budget);
  return {
    ...s, outcome: 'stopped',
    reason: `stopped by the race at rung ${rung} of ${rungs} (${steps.toLocaleString('en-US')} of ${budget.toLocaleString('en-US')} steps, ${share}% of the budget), ranked ${place} of ${of} there; its scores are that rung's`,
  };
}

/** The chunk size the search's items carry (init.ts seedTasks sets the same). */
export function chunkStepsOf(config: Pick<SearchSettings, 'chunkSteps' | 'task'>): number {
  return config.chunkSteps ?? defaultChunkSteps(getTask(config.task));
}
