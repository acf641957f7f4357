/** The race's rungs (functions/reflect/race.ts runs them; the estimate plays them): steps per seed-run at each. */
import type { SearchSettings } from './contracts.ts';
import { ppoConfigFor } from '../../../core/ppo-config.ts';
import type { Task } from '../../../tasks/contract.ts';

/** Steps per seed-run at each rung: budget / eta^(rungs - r), in whole rollouts, the last the budget. */
export function raceSchedule(config: Pick<SearchSettings, 'racing' | 'steps'>, task: Pick<Task, 'ppo'>): number[] {
  if (config.racing === false) return [config.steps];
  const { eta, rungs } = config.racing;
  const { numEnvs, numSteps } = ppoConfigFor(task, 0, config.steps);
  const rollout = numEnvs * numSteps;
  const steps = Array.from({ length: rungs }, (_, r) =>
    r === rungs - 1 ? config.steps : Math.max(1, Math.round(config.steps / eta ** (rungs - 1 - r) / rollout)) * rollout);
  // A budget too small for distinct rungs races fewer of them.
  return steps.filter((s, r) => r === rungs - 1 || (s < config.steps && s > (steps[r - 1] ?? 0)));
}
