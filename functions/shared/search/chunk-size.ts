/**
 * How many environment steps one TrainSeed invocation trains: what the task's measured speed does
 * in CHUNK_SECONDS on a Lambda vCPU, in whole rollouts. One place, read by "Start the search" (the
 * Map items carry it) and by TrainSeed for a caller that gives none.
 */
import { CHUNK_SECONDS, LAMBDA_VCPU_SLOWDOWN } from '../../../infra/config.ts';
import { ppoConfigFor } from '../../../core/ppo-config.ts';
import type { Task } from '../../../tasks/contract.ts';

/** A task that measured no speed is taken to train this many steps per second on one core. */
export const DEFAULT_STEPS_PER_SECOND = 2_000;

export function defaultChunkSteps(task: Pick<Task, 'budget' | 'ppo'>): number {
  const { numEnvs, numSteps } = ppoConfigFor(task, 0, 0);
  const rollout = numEnvs * numSteps;
  const steps = (CHUNK_SECONDS * (task.budget.stepsPerSecond ?? DEFAULT_STEPS_PER_SECOND)) / LAMBDA_VCPU_SLOWDOWN;
  return Math.max(1, Math.floor(steps / rollout)) * rollout;
}

/** The steps a seed-run of budget `steps` trains: whole rollouts, at least one. */
export function stepsAtBudget(task: Pick<Task, 'ppo'>, steps: number): number {
  const { numEnvs, numSteps } = ppoConfigFor(task, 0, 0);
  const rollout = numEnvs * numSteps;
  return Math.max(1, Math.floor(steps / rollout)) * rollout;
}
