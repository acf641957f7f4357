/**
 * What a search will cost before it starts, from its settings alone (nothing trains): the seed-runs
 * and environment steps it trains with and without racing, its wall time on this machine and on
 * AWS, TrainSeed's GB-seconds and dollars, and the model's worst case against the ceiling.
 *
 * Exact where the definition decides (the steps without racing: every seed-run, baselines and
 * fresh seeds included, when every candidate passes its check), expected where the candidates do
 * (the race: each task's recorded share of candidates that stay in at a rung, `budget.raceSurvival`),
 * and a bound where the model does (its tokens). The times come from the task's recorded speed
 * (`budget.stepsPerSecond`) and the overheads measured on the project's machine (README, "What a
 * search will cost").
 */
import { FUNCTION_CAPS, LAMBDA_ARCHITECTURE, LAMBDA_VCPU_SLOWDOWN } from '../../../infra/config.ts';
import { raceSchedule } from '../search/race-schedule.ts';
import type { Task } from '../../../tasks/contract.ts';
import { baselinesOf } from '../search/baselines.ts';
import { DEFAULT_STEPS_PER_SECOND, stepsAtBudget } from '../search/chunk-size.ts';
import type { SearchSettings } from '../search/contracts.ts';
import { lambdaPriceOf } from './lambda-pricing.ts';
import { costUsd } from './pricing.ts';
import { MAX_CODE_BYTES, MODEL_MAX_TOKENS, worstCaseTokens } from './worst-case.ts';
import { seedRunChunks } from './history-bound.ts';

/**
 * Overheads of the local runtime, measured on the project's 2-core machine on searches other than
 * the ones the estimate is checked on (README): per Distributed Map item (a child execution, the
 * worker's dispatch, the checkpoint's and result's writes), per generation (Propose, the checks and
 * the screen, Plan, Reflect and its interim card), per rung (Promote), and once (start and Publish).
 */
export const LOCAL_OVERHEAD_SECONDS = { item: 0.5, generation: 4, rung: 0.5, search: 8 } as const;

/**
 * A seed-run's speed here while every core runs one, against the task's recorded speed (one idle
 * core): measured on the README's search (G=4, K=6, S=3: 18,000 steps a
 * second against its recorded 20,000), not on the searches the estimate is checked on.
 */
export const LOCAL_CONCURRENT_SPEED = 0.9;

/** On AWS, per TrainSeed invocation: the checkpoint's read and write and the function's start (an assumption: no AWS account measured it). */
export const AWS_INVOCATION_SECONDS = 2;

/** A task that recorded no race figure is taken to keep every candidate at every rung (the race stops nobody: an upper bound). */
export const DEFAULT_RACE_SURVIVAL = 1;

/** A later generation's prompt shows at most the best's and the latest best's code, each at the size limit, and this much of their statistics. */
export const REFLECTION_STATS_CHARS = 12_000;
/** A repair prompt shows each failed candidate's code (at the limit) and its reason, at most this long. */
export const REPAIR_REASON_CHARS = 2_000;

export interface ModelEstimate {
  /** Requests at most: each generation's proposal and its repair. */
  requests: number;
  /** Worst case (every code shown at the size limit, every answer at its cap, each with a schema repair). */
  inputTokens: number;
  outputTokens: number;
  /** null: the model has no price (or the proposer bills nothing: then 0). */
  usd: number | null;
  ceilingUsd: number | null;
  /** Generations whose every request the ceiling covers at worst; null without a ceiling. */
  generationsCovered: number | null;
}

export interface SearchEstimate {
  seedRuns: { baselines: number; candidates: number; fresh: number; total: number };
  steps: { fullBudget: number; raced: number; raceSurvival: number | null };
  /** TrainSeed's invocations for the seed-runs (one per chunk, each rung at least one). */
  invocations: number;
  /** This machine, `cores` seed-runs at once (its cores, or maxConcurrency if fewer); null on AWS. */
  local: { cores: number; seconds: number; gbSeconds: number } | null;
  aws: { concurrency: number; seconds: number; gbSeconds: number; region: string; usd: number | null };
  /** null where generation 1's prompt was not built (the estimate "Start the search" keeps). */
  model: ModelEstimate | null;
  /** The task's recorded speed the times come from (steps a second on one core). */
  stepsPerSecond: number;
}

/** One Map of seed-runs: `items` of them, each training `steps` more, in as many chunks. */
interface Wave { items: number; steps: number; chunks: number }

export function estimateSearch(config: SearchSettings, task: Task, machine: { cores: number | null; region: string; firstPromptChars: number | null }): SearchEstimate {
  // The local runtime runs the Maps at the input's maxConcurrency too, and at most one seed-run a core.
  const where = { ...machine, cores: machine.cores === null ? null : Math.max(1, Math.min(machine.cores, config.maxConcurrency)) };
  const waves = mapsOf(config, task);
  const full = stepsAtBudget(task, config.steps);
  const baselines = baselinesOf(task).length;
  const fresh = (config.freshSeeds ?? config.seeds) * (1 + baselines);
  const candidates = Array.from({ length: config.generations }, (_, g) => candidatesOf(config, g + 1)).reduce((a, b) => a + b, 0) * config.seeds;
  const seedRuns = { baselines: baselines * config.seeds, candidates, fresh, total: baselines * config.seeds + candidates + fresh };
  const sps = task.budget.stepsPerSecond ?? DEFAULT_STEPS_PER_SECOND;
  const memoryGb = FUNCTION_CAPS.trainSeed.memoryMb / 1024;
  const seedSeconds = waves.reduce((n, w) => n + (w.items * w.steps) / sps, 0);
  const localSpeed = where.cores !== null && where.cores > 1 ? LOCAL_CONCURRENT_SPEED : 1;
  const invocations = waves.reduce((n, w) => n + w.items * w.chunks, 0);
  // A Map item's fixed cost (its grading, the sandbox's start, the checkpoint) is in its seed-run's time as it is in the wall time.
  const items = waves.reduce((n, w) => n + w.items, 0);
  const awsSeedSeconds = seedSeconds * LAMBDA_VCPU_SLOWDOWN + invocations * AWS_INVOCATION_SECONDS;
  const price = lambdaPriceOf(where.region);
  return {
    seedRuns,
    steps: { fullBudget: seedRuns.total * full, raced: waves.reduce((n, w) => n + w.items * w.steps, 0), raceSurvival: config.racing === false ? null : survivalOf(task) },
    invocations,
    local: where.cores === null ? null : { cores: where.cores, seconds: localSeconds(config, waves, where.cores, sps * localSpeed), gbSeconds: (seedSeconds / localSpeed + items * LOCAL_OVERHEAD_SECONDS.item) * memoryGb },
    aws: {
      concurrency: config.maxConcurrency,
      seconds: wallSeconds(waves, config.maxConcurrency, (w) => awsSeedRunSeconds(w.steps, w.chunks, sps)),
      gbSeconds: awsSeedSeconds * memoryGb,
      region: where.region,
      usd: price === null ? null : awsSeedSeconds * memoryGb * price.gbSecond[LAMBDA_ARCHITECTURE] + invocations * price.request,
    },
    model: where.firstPromptChars === null ? null : modelEstimate(config, where.firstPromptChars),
    stepsPerSecond: sps,
  };
}

/** One seed-run's `steps` in `chunks` TrainSeed invocations on AWS, at `sps` steps a second on one core here. */
export function awsSeedRunSeconds(steps: number, chunks: number, sps: number): number {
  return (steps * LAMBDA_VCPU_SLOWDOWN) / sps + chunks * AWS_INVOCATION_SECONDS;
}

/** Candidates a generation trains at most: K, and in generation 1 the human rewards (the hostile probes fail their check). */
function candidatesOf(config: Pick<SearchSettings, 'candidates' | 'humanInit'>, generation: number): number {
  return config.candidates + (generation === 1 ? config.humanInit.length : 0);
}

function survivalOf(task: Task): number {
  return task.budget.raceSurvival ?? DEFAULT_RACE_SURVIVAL;
}

/** Every Map of seed-runs the search runs, in order: the baselines after generation 1's Plan, each rung of each generation, the fresh seeds. */
function mapsOf(config: SearchSettings, task: Task): Wave[] {
  const full = stepsAtBudget(task, config.steps);
  const chunksFor = (steps: number) => seedRunChunks({ steps, chunkSteps: config.chunkSteps }, task);
  const whole: Wave = { items: 0, steps: full, chunks: chunksFor(config.steps) };
  const waves: Wave[] = [];
  for (let g = 1; g <= config.generations; g++) {
    if (g === 1) waves.push({ ...whole, items: baselinesOf(task).length * config.seeds });
    waves.push(...rungsOf(config, task, candidatesOf(config, g)).map((w) => ({ ...w, items: w.items * config.seeds })));
  }
  waves.push({ ...whole, items: (config.freshSeeds ?? config.seeds) * (1 + baselinesOf(task).length) });
  return waves;
}

/**
 * One generation's race, per seed: the candidates at each rung and the steps each trains there.
 * At a rung the top 1/eta go on and, of the rest, the task's recorded share that is not clearly
 * behind (race-standings.ts); the last one left goes straight to the budget (race.ts).
 */
function rungsOf(config: SearchSettings, task: Task, n: number): Wave[] {
  const schedule = raceSchedule(config, task).map((s) => stepsAtBudget(task, s));
  const eta = config.racing === false ? 1 : config.racing.eta;
  const waves: Wave[] = [];
  let alive = n;
  let trained = 0;
  for (let r = 0; r < schedule.length && alive > 0; r++) {
    const last = r === schedule.length - 1 || alive === 1;
    const target = last ? schedule.at(-1)! : schedule[r];
    waves.push({ items: alive, steps: target - trained, chunks: seedRunChunks({ steps: target - trained, chunkSteps: config.chunkSteps }, task) });
    if (last) break;
    trained = target;
    alive = Math.min(alive, Math.max(Math.ceil(alive / eta), Math.round(alive * survivalOf(task))));
  }
  return waves;
}

/** Waves of `concurrency` seed-runs at once, each Map's items equally long. */
function wallSeconds(waves: Wave[], concurrency: number, seconds: (w: Wave) => number): number {
  return waves.reduce((t, w) => t + Math.ceil(w.items / concurrency) * seconds(w), 0);
}

function localSeconds(config: SearchSettings, waves: Wave[], cores: number, sps: number): number {
  const o = LOCAL_OVERHEAD_SECONDS;
  const rungs = waves.length - 2; // less the baselines' and the fresh seeds' Maps
  return wallSeconds(waves, cores, (w) => w.steps / sps + o.item) + config.generations * o.generation + rungs * o.rung + o.search;
}

/** The model's worst case: per generation its proposal and, with repair, one repair of every candidate. */
function modelEstimate(config: SearchSettings, first: number): ModelEstimate {
  const billed = config.proposer === 'anthropic' || config.proposer === 'bedrock';
  const repairs = config.repair || config.screen === 'repair';
  const requests = config.generations * (repairs ? 2 : 1);
  if (!billed) return { requests, inputTokens: 0, outputTokens: 0, usd: 0, ceilingUsd: config.maxCostUsd, generationsCovered: config.maxCostUsd === null ? null : config.generations };
  const code = MAX_CODE_BYTES;
  const outputCap = MODEL_MAX_TOKENS + (config.thinkingBudget ?? 0);
  const perGeneration = Array.from({ length: config.generations }, (_, i) => {
    const g = i + 1;
    const proposal = first + (g === 1 ? 0 : 2 * code + REFLECTION_STATS_CHARS);
    const repaired = candidatesOf(config, g) * (code + REPAIR_REASON_CHARS);
    return [proposal, ...(repairs ? [first + repaired] : [])].map((chars) => worstCaseTokens(chars, MODEL_MAX_TOKENS, outputCap));
  });
  const all = perGeneration.flat();
  const usdOf = (g: number) => perGeneration.slice(0, g).flat().reduce<number | null>((n, t) => (n === null ? null : add(n, costUsd(config.model, t))), 0);
  const usd = usdOf(config.generations);
  const ceiling = config.maxCostUsd;
  let covered: number | null = null;
  if (ceiling !== null && usd !== null) {
    covered = 0;
    while (covered < config.generations && (usdOf(covered + 1) ?? Infinity) <= ceiling) covered++;
  }
  return {
    requests, inputTokens: all.reduce((n, t) => n + t.inputTokens, 0), outputTokens: all.reduce((n, t) => n + t.outputTokens, 0),
    usd, ceilingUsd: ceiling, generationsCovered: covered,
  };
}

const add = (a: number, b: number | null): number | null => (b === null ? null : a + b);
