/**
 * "Plan the seed-runs": only what passed its check trains. The candidates as proposed that passed
 * and the repaired ones that passed, as the screen orders and sorts them (screen-plan.ts), each on
 * the search's seeds, to the race's first rung (the budget, without racing).
 */
import type { PlanEvent, PlanResult } from '../shared/search/contracts.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { getTask } from '../../tasks/registry.ts';
import { seedTasks } from './init.ts';
import { firstRung } from './race.ts';
import { raceSchedule } from '../shared/search/race-schedule.ts';
import { screenPlan } from './screen-plan.ts';

export async function plan(store: SearchStore, event: PlanEvent): Promise<PlanResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  const passed = [...event.checks, ...event.repairChecks].filter((c) => c.verdict === 'ok').map((c) => c.candidateId);
  const { train } = await screenPlan(store, searchId, generation, [...new Set(passed)], meta.config.screen ?? 'report');
  const tasks = seedTasks(searchId, generation, train, meta.config, 0);
  return firstRung(generation, tasks, raceSchedule(meta.config, getTask(meta.config.task)));
}
