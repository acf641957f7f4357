/**
 * The two baselines every search trains beside its candidates (DESIGN §5), through the same
 * pipeline and on the same seeds: the task's own reward and a person's shaping, both written in
 * the task's folder. Their candidate ids are fixed, whatever the task.
 */
import type { Task } from '../../../tasks/contract.ts';
import type { Candidate } from './types.ts';

export const ENVIRONMENT_REWARD_ID = 'environment_reward';
export const HUMAN_SHAPING_ID = 'human_shaping';

export const BASELINE_IDS: readonly string[] = [ENVIRONMENT_REWARD_ID, HUMAN_SHAPING_ID];

/** The task's two baselines as candidates, the environment's reward first. */
export function baselinesOf(task: Pick<Task, 'baselines'>): Candidate[] {
  return [
    { name: ENVIRONMENT_REWARD_ID, ...task.baselines.environment },
    { name: HUMAN_SHAPING_ID, ...task.baselines.human },
  ];
}
