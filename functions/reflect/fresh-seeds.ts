/** The re-check that ends every search: the best so far and the baselines on seeds it never used. */
import type { SearchSettings } from '../shared/search/contracts.ts';
import { BASELINE_GENERATION, FRESH_SEED_OFFSET, type BestPointer } from '../shared/store/records.ts';
import type { SeedTask } from '../shared/search/types.ts';
import { getTask } from '../../tasks/registry.ts';
import { baselinesOf } from '../shared/search/baselines.ts';
import { seedTasks } from './init.ts';

export function freshTasks(searchId: string, best: BestPointer, config: SearchSettings): SeedTask[] {
  const baselines = baselinesOf(getTask(config.task)).map((b) => b.name);
  const fresh = { ...config, seeds: config.freshSeeds ?? config.seeds };
  return [
    ...seedTasks(searchId, best.generation, [best.candidateId], fresh, FRESH_SEED_OFFSET),
    ...seedTasks(searchId, BASELINE_GENERATION, baselines, fresh, FRESH_SEED_OFFSET),
  ];
}
