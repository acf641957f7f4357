/**
 * Whether an input's worst case can finish inside the execution's SEARCH_TIMEOUT_SECONDS (24 h), the
 * whole search counted, state by state of the definition (infra/workflow.ts):
 *
 * - the seed-runs, at the task's measured speed on a Lambda vCPU (the estimate, estimate.ts), every
 *   candidate trained to the budget at every rung (a race that stops nobody), and then every heir of
 *   a faulted finalist trained on from the first rung to the budget, one after another (race.ts);
 * - every other Task at its timeout (its Lambda's and a margin: infra/config.ts), once a visit, and
 *   once more for each retry the definition makes when a visit ran out of time (TIME_RETRIES: a
 *   proposer streaming a long answer), with the waits between: "Start the search"; in each generation
 *   "Propose rewards", the checks (an inline Map: waves of at most 40), "Repair rewards", the repaired
 *   rewards' checks, "Plan the seed-runs", "Promote" at each rung and for each heir, "Reflect on
 *   results"; "Finish early", "Publish the winner" and "Announce the winner" once;
 * - every pause for feedback timed out, and with a person answering (files:DIR) every request waited
 *   for to its deadline.
 *
 * Not counted: the retries of faults (a Lambda service error, throttling, a process retired after a
 * memory fault, a failed PutEvents), which are AWS's or the host's trouble, as the history keeps a
 * reserve for them (infra/history-events.ts); and TrainSeed's chunks at their timeout, since each is
 * sized to CHUNK_SECONDS of the measured speed. That speed is what keeps the seed-runs' part a worst
 * case: each task's is measured one way (docs/estimate-and-costs.md). "Start the search" refuses an
 * input that cannot finish, saying what it counted and what would fit (search-input.ts).
 */
import {
  ANNOUNCE_TIMEOUT_SECONDS, HOSTILE_CANDIDATE_COUNT, INLINE_MAP_MAX_CONCURRENCY, MAX_MAP_CONCURRENCY, RETRY_BACKOFF,
  SEARCH_TIMEOUT_SECONDS, TIME_RETRIES, taskTimeoutSeconds,
} from '../../../infra/config.ts';
import type { Task } from '../../../tasks/contract.ts';
import { raceSchedule } from '../search/race-schedule.ts';
import { DEFAULT_STEPS_PER_SECOND, stepsAtBudget } from '../search/chunk-size.ts';
import type { SearchSettings } from '../search/contracts.ts';
import { awsSeedRunSeconds, estimateSearch } from './estimate.ts';
import { durationOf } from './estimate-text.ts';
import { raceLoops, seedRunChunks } from './history-bound.ts';

export interface WorstCase {
  /** The seed-runs on AWS: every candidate to the budget at every rung, then every heir. */
  seedRuns: number;
  /** Every other Task at its timeout, with its retries for time. */
  states: number;
  /** Every pause for feedback timed out, and every request to a person (files:DIR) to its deadline. */
  pauses: number;
  total: number;
}

type Retry = { intervalSeconds: number; maxAttempts: number };
type Visits = Record<'init' | 'propose' | 'check' | 'repair' | 'plan' | 'promote' | 'reflect' | 'finish' | 'publish' | 'announce', number>;

/** The longest a Task's visit takes: its timeout at every attempt its retries for time allow, and the longest waits between. */
function attempts(timeoutSeconds: number, retries: Retry[]): number {
  const waits = retries.flatMap((r) => Array.from({ length: r.maxAttempts }, (_, k) => Math.min(RETRY_BACKOFF.maxDelaySeconds, r.intervalSeconds * RETRY_BACKOFF.rate ** k)));
  return timeoutSeconds * (1 + retries.reduce((n, r) => n + r.maxAttempts, 0)) + waits.reduce((a, b) => a + b, 0);
}

/**
 * One visit of each Task the worst case counts, in seconds. Only a proposer that streams an answer
 * (any but the offline one) can run out of time and be retried for it; Repair only when it sends.
 */
export function visitSeconds(config: Pick<SearchSettings, 'proposer' | 'repair'>): Visits {
  const streams = config.proposer !== 'offline';
  return {
    init: taskTimeoutSeconds('init'),
    propose: attempts(taskTimeoutSeconds('propose'), streams ? [TIME_RETRIES.outOfTime] : []),
    check: taskTimeoutSeconds('check'),
    repair: attempts(taskTimeoutSeconds('repair'), streams && config.repair ? [TIME_RETRIES.outOfTime, TIME_RETRIES.repairTimeout] : []),
    plan: taskTimeoutSeconds('plan'),
    promote: taskTimeoutSeconds('promote'),
    reflect: taskTimeoutSeconds('reflect'),
    finish: taskTimeoutSeconds('finish'),
    publish: taskTimeoutSeconds('publish'),
    announce: ANNOUNCE_TIMEOUT_SECONDS,
  };
}

export function worstCaseSeconds(config: SearchSettings, task: Task): WorstCase {
  const everyCandidate = { ...task, budget: { ...task.budget, raceSurvival: 1 } };
  const trained = estimateSearch(config, everyCandidate, { cores: null, region: 'us-east-1', firstPromptChars: null }).aws.seconds;
  const visit = visitSeconds(config);
  const checks = (items: number) => Math.ceil(items / Math.min(config.maxConcurrency, INLINE_MAP_MAX_CONCURRENCY)) * visit.check;
  let states = visit.init + visit.finish + visit.publish + visit.announce;
  let heirs = 0;
  for (let g = 1; g <= config.generations; g++) {
    // As history-bound.ts: a repair takes its candidate's place, so the racers are those the proposer and people wrote.
    const racers = config.candidates + (g === 1 ? config.humanInit.length : 0);
    const checked = racers + (g === 1 && config.includeHostile ? HOSTILE_CANDIDATE_COUNT : 0);
    states += visit.propose + checks(checked) + visit.repair + checks(config.repair ? racers : 0) + visit.plan
      + raceLoops(config, racers) * visit.promote + visit.reflect;
    heirs += heirSeconds(config, task, racers);
  }
  const wait = config.feedbackTimeoutMinutes * 60;
  const requests = config.proposer === 'files' ? config.generations * (config.repair ? 2 : 1) : 0;
  const pauses = (config.feedback === 'wait' ? config.generations - 1 : 0) * wait + requests * wait;
  const seedRuns = trained + heirs;
  return { seedRuns, states, pauses, total: seedRuns + states + pauses };
}

/**
 * A generation's heirs (race.ts): when every finalist faults at the budget, the stopped candidate that
 * got furthest trains on to the budget in its place, on all its seeds, one heir after another; at most
 * every racer but one, each from the first rung at the earliest.
 */
function heirSeconds(config: SearchSettings, task: Task, racers: number): number {
  const schedule = raceSchedule(config, task).map((s) => stepsAtBudget(task, s));
  if (schedule.length < 2) return 0;
  const steps = schedule.at(-1)! - schedule[0];
  const chunks = seedRunChunks({ steps, chunkSteps: config.chunkSteps }, task);
  const waves = Math.ceil(config.seeds / config.maxConcurrency);
  return Math.max(0, racers - 1) * waves * awsSeedRunSeconds(steps, chunks, task.budget.stepsPerSecond ?? DEFAULT_STEPS_PER_SECOND);
}

const fits = (config: SearchSettings, task: Task): boolean => worstCaseSeconds(config, task).total <= SEARCH_TIMEOUT_SECONDS;

/** Why an input cannot finish inside the execution's time, what was counted, and what would fit; null when it can. */
export function timeProblem(config: SearchSettings, task: Task): string | null {
  if (fits(config, task)) return null;
  const worst = worstCaseSeconds(config, task);
  const pauses = worst.pauses > 0 ? ` and ${durationOf(worst.pauses)} of pauses (for feedback, or for a person's answers)` : '';
  const ways: string[] = [];
  const concurrency = leastThatFits(config.maxConcurrency + 1, MAX_MAP_CONCURRENCY, (c) => fits({ ...config, maxConcurrency: c }, task));
  if (concurrency !== null) ways.push(`"maxConcurrency" of at least ${concurrency}`);
  let generations = config.generations - 1;
  while (generations > 0 && !fits({ ...config, generations }, task)) generations--;
  if (generations > 0) ways.push(`at most ${generations} "generations"`);
  if (config.racing !== false && fits({ ...config, racing: false }, task)) ways.push('"racing": false (no heirs train one after another)');
  return `the search's worst case is about ${durationOf(worst.total)}: ${durationOf(worst.seedRuns)} of seed-runs on AWS at "maxConcurrency" ${config.maxConcurrency} ` +
    `(the estimate at the task's measured speed, every candidate trained to the budget at every rung${config.racing === false ? '' : ', then every heir of a faulted finalist'}), ` +
    `${durationOf(worst.states)} of the other states at their timeouts (each generation's proposal, checks, repair, plan, promotions and reflection, ` +
    `with the retries for time; the start, the finish and the publishing)${pauses}, more than the execution's ${SEARCH_TIMEOUT_SECONDS / 3600} h: ` +
    (ways.length > 0 ? `${ways.join(', or ')} would fit` : 'fewer "seeds", "candidates" or "steps" would');
}

/** The least value in [low, high] that passes a test that stays passed above it; null when none does. */
function leastThatFits(low: number, high: number, test: (n: number) => boolean): number | null {
  if (low > high || !test(high)) return null;
  let [lo, hi] = [low, high];
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
