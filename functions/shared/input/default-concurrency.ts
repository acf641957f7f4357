/**
 * The default of the input's `maxConcurrency`: every seed-run of the search's largest Map at once.
 * A generation's rung trains K candidates (generation 1's human rewards too) on S seeds each; with
 * fewer slots than that, its seed-runs run in ceil(K x S / slots) waves one after another, and a
 * robot's seed-run is hours on a Lambda vCPU. With all of them at once, one seed-run is the critical
 * path of each Map. The baselines' Map (each baseline on S seeds) and the fresh seeds' (the winner
 * and the baselines on the fresh seeds) are covered too. Never more than MAX_MAP_CONCURRENCY, which
 * the largest accepted input fits (K=16 and 16 human rewards on S=10 seeds); the local runtime runs
 * at most one seed-run a core whatever this says (local/train-seed-pool.ts).
 */
import { MAX_MAP_CONCURRENCY } from '../../../infra/config.ts';
import type { Task } from '../../../tasks/contract.ts';
import { baselinesOf } from '../search/baselines.ts';
import type { SearchSettings } from '../search/contracts.ts';

export function defaultConcurrency(s: Pick<SearchSettings, 'candidates' | 'seeds' | 'humanInit' | 'freshSeeds'>, task: Pick<Task, 'baselines'>): number {
  const baselines = baselinesOf(task).length;
  const rung = (s.candidates + s.humanInit.length) * s.seeds;
  const fresh = (s.freshSeeds ?? s.seeds) * (1 + baselines);
  return Math.min(MAX_MAP_CONCURRENCY, Math.max(rung, baselines * s.seeds, fresh));
}
