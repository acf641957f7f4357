/**
 * "Plan the seed-runs": only what passed its check trains. The candidates as proposed that passed,
 * then the repaired ones that passed, each on the search's seeds.
 */
import type { PlanEvent, PlanResult } from '../shared/contracts.ts';
import type { SearchStore } from '../shared/search-store.ts';
import { seedTasks } from './init.ts';

export async function plan(store: SearchStore, event: PlanEvent): Promise<PlanResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  const passed = [...event.checks, ...event.repairChecks].filter((c) => c.verdict === 'ok').map((c) => c.candidateId);
  return { generation, tasks: seedTasks(searchId, generation, [...new Set(passed)], meta.config, 0) };
}
