/**
 * The most history events a search can append, from the definition's structure (infra/workflow.ts,
 * costs in infra/history-events.ts): every state at its costliest (a check caught, a repair that
 * fails and one that succeeds, whichever costs more, every pause timed out), every loop at its
 * longest (each race's every rung and every heir of a faulted finalist, each seed-run's every chunk). Two executions can pass the
 * quota: the search's own (its generations, checks and rungs; no chunk loop, since every seed-run
 * Map is distributed), and a seed-run's child (its chunks). "Start the search" refuses an input
 * whose bound passes HISTORY_EVENT_BUDGET, naming what would fit (search-input.ts).
 */
import { HOSTILE_CANDIDATE_COUNT } from '../../../infra/config.ts';
import {
  CHECK_ITERATION_EVENTS, HISTORY_EVENT_BUDGET, HISTORY_EVENT_LIMIT, inlineMapEvents, seedRunChildEvents, VISIT_EVENTS as V,
} from '../../../infra/history-events.ts';
import { ppoConfigFor } from '../../../core/ppo-config.ts';
import type { Task } from '../../../tasks/contract.ts';
import { defaultChunkSteps } from '../search/chunk-size.ts';
import type { SearchSettings } from '../search/contracts.ts';

type Shape = Pick<SearchSettings, 'generations' | 'candidates' | 'humanInit' | 'includeHostile' | 'repair' | 'racing' | 'feedback' | 'steps' | 'chunkSteps'>;
type TaskShape = Pick<Task, 'ppo' | 'budget'>;

export interface HistoryBound {
  /** The search's own execution. */
  search: number;
  /** The chunks of the longest seed-run one child execution trains (from none to the budget), and its events. */
  seedRunChunks: number;
  seedRun: number;
}

export function historyBound(config: Shape, task: TaskShape): HistoryBound {
  const chunks = seedRunChunks(config, task);
  return { search: searchEvents(config), seedRunChunks: chunks, seedRun: seedRunChildEvents(chunks) };
}

/** TrainSeed's chunks from no steps to the budget: whole updates of one rollout, at least one a chunk (seed-run.ts). */
export function seedRunChunks(config: Pick<Shape, 'steps' | 'chunkSteps'>, task: TaskShape): number {
  const { numEnvs, numSteps } = ppoConfigFor(task, 0, config.steps);
  const rollout = numEnvs * numSteps;
  const updates = Math.max(1, Math.floor(config.steps / rollout));
  const perChunk = Math.max(1, Math.floor((config.chunkSteps ?? defaultChunkSteps(task)) / rollout));
  return Math.ceil(updates / perChunk);
}

/**
 * The race's loops in one generation of `racers` candidates at most: one a rung, and one more for
 * each heir. When every candidate trained to the budget faults there, the stopped one that got
 * furthest trains on to the budget in its place (race.ts), and so on while heirs fault: at most
 * every candidate the race stopped, all of them but one. Without racing nobody is stopped: one loop.
 */
export function raceLoops(config: Pick<Shape, 'racing'>, racers: number): number {
  return config.racing === false ? 1 : config.racing.rungs + Math.max(0, racers - 1);
}

/** Start the search, every generation, the fresh seeds, Publish and Announce. */
function searchEvents(config: Shape): number {
  let events = V.execution + V.task + V.distributedMap + V.task + V.task;
  for (let g = 1; g <= config.generations; g++) {
    const first = g === 1;
    const repairable = config.candidates + (first ? config.humanInit.length : 0);
    // A repair takes its candidate's place in the race: as many racers as candidates the proposer and people wrote.
    const rungs = raceLoops(config, repairable);
    const checked = repairable + (first && config.includeHostile ? HOSTILE_CANDIDATE_COUNT : 0);
    const repaired = config.repair ? repairable : 0;
    const pause = config.feedback === 'wait' && g < config.generations;
    events += V.task + V.choice // Propose rewards, Out of budget?
      + inlineMapEvents(checked, CHECK_ITERATION_EVENTS)
      + Math.max(V.task + inlineMapEvents(repaired, CHECK_ITERATION_EVENTS), V.task + V.pass + inlineMapEvents(0, 0))
      + V.task + V.choice + (first ? V.distributedMap : 0) // Plan, Baselines trained?, Train baselines
      + rungs * (V.distributedMap + V.task + V.choice) // Train rung, Promote, More rungs? (each rung, each heir)
      + V.task + V.choice // Reflect on results, Wait for feedback?
      + (pause ? V.pass + V.tokenTask + V.pass + V.choice : 0) // Prepare the pause, Wait for feedback, Feedback timed out, Stop after feedback?
      + V.choice + (g < config.generations ? V.pass : 0); // More generations?, Next generation
  }
  return events;
}

const n = (x: number): string => x.toLocaleString('en-US');
const QUOTA = `Step Functions' ${n(HISTORY_EVENT_LIMIT)} history events per execution (${n(HISTORY_EVENT_LIMIT - HISTORY_EVENT_BUDGET)} of them kept for retries)`;

/** Why an input's worst case would pass the history quota, and what would fit; null when it fits. */
export function historyProblem(config: Shape, task: TaskShape): string | null {
  const bound = historyBound(config, task);
  const problems: string[] = [];
  if (bound.seedRun > HISTORY_EVENT_BUDGET) {
    const { numEnvs, numSteps } = ppoConfigFor(task, 0, config.steps);
    const rollout = numEnvs * numSteps;
    const mostChunks = Math.floor((HISTORY_EVENT_BUDGET - seedRunChildEvents(0)) / (V.task + V.choice));
    const updates = Math.max(1, Math.floor(config.steps / rollout));
    const chunkSteps = config.chunkSteps ?? defaultChunkSteps(task);
    const perChunk = Math.max(1, Math.floor(chunkSteps / rollout));
    const given = config.chunkSteps === undefined ? `the task's chunks of ${n(chunkSteps)}` : `chunks of ${n(chunkSteps)} ("chunkSteps")`;
    problems.push(`"steps" ${n(config.steps)} in ${given} is ${n(bound.seedRunChunks)} TrainSeed invocations a seed-run, ` +
      `${n(bound.seedRun)} history events in its child execution, over the ${n(HISTORY_EVENT_BUDGET)} of ${QUOTA} an input's worst case may use: ` +
      `"chunkSteps" of at least ${n(Math.ceil(updates / mostChunks) * rollout)} fit these steps, and "steps" of at most ${n((mostChunks * perChunk + 1) * rollout - 1)} these chunks`);
  }
  if (bound.search > HISTORY_EVENT_BUDGET) {
    let fit = config.generations - 1;
    while (fit > 0 && searchEvents({ ...config, generations: fit }) > HISTORY_EVENT_BUDGET) fit--;
    problems.push(`the search's worst case is ${n(bound.search)} history events in its own execution, over the ${n(HISTORY_EVENT_BUDGET)} of ${QUOTA} an input's worst case may use: ` +
      (fit > 0 ? `at most ${fit} "generations" fit with these candidates and rungs` : 'fewer candidates, human rewards or rungs'));
  }
  return problems.length === 0 ? null : problems.join('; ');
}
