/**
 * Whether an input's worst case can finish inside the execution's SEARCH_TIMEOUT_SECONDS (24 h):
 * the estimate's AWS wall time of its seed-runs at the input's maxConcurrency (estimate.ts), with
 * every candidate trained to the budget at every rung (a race that stops nobody), plus every pause
 * for feedback timed out. Not the sum of every Task's timeout, which no search comes near. "Start the
 * search" refuses an input that cannot finish, naming the estimate and what would fit (search-input.ts).
 */
import { MAX_MAP_CONCURRENCY, SEARCH_TIMEOUT_SECONDS } from '../../../infra/config.ts';
import type { Task } from '../../../tasks/contract.ts';
import type { SearchSettings } from '../search/contracts.ts';
import { estimateSearch } from './estimate.ts';
import { durationOf } from './estimate-text.ts';

/** The worst case in seconds: the seed-runs on AWS with every candidate to the budget, and the pauses. */
export function worstCaseSeconds(config: SearchSettings, task: Task): { seedRuns: number; pauses: number } {
  const everyCandidate = { ...task, budget: { ...task.budget, raceSurvival: 1 } };
  const seedRuns = estimateSearch(config, everyCandidate, { cores: null, region: 'us-east-1', firstPromptChars: null }).aws.seconds;
  const pauses = config.feedback === 'wait' ? (config.generations - 1) * config.feedbackTimeoutMinutes * 60 : 0;
  return { seedRuns, pauses };
}

const fits = (config: SearchSettings, task: Task): boolean => {
  const worst = worstCaseSeconds(config, task);
  return worst.seedRuns + worst.pauses <= SEARCH_TIMEOUT_SECONDS;
};

/** Why an input cannot finish inside the execution's time, and what would; null when it can. */
export function timeProblem(config: SearchSettings, task: Task): string | null {
  if (fits(config, task)) return null;
  const worst = worstCaseSeconds(config, task);
  const pauses = worst.pauses > 0 ? ` and ${durationOf(worst.pauses)} of pauses for feedback` : '';
  const ways: string[] = [];
  const concurrency = leastThatFits(config.maxConcurrency + 1, MAX_MAP_CONCURRENCY, (c) => fits({ ...config, maxConcurrency: c }, task));
  if (concurrency !== null) ways.push(`"maxConcurrency" of at least ${concurrency}`);
  let generations = config.generations - 1;
  while (generations > 0 && !fits({ ...config, generations }, task)) generations--;
  if (generations > 0) ways.push(`at most ${generations} "generations"`);
  return `the search's worst case is about ${durationOf(worst.seedRuns)} of seed-runs on AWS at "maxConcurrency" ${config.maxConcurrency} ` +
    `(the estimate, every candidate trained to the budget)${pauses}, more than the execution's ${SEARCH_TIMEOUT_SECONDS / 3600} h: ` +
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
