/**
 * The sandbox's budgets at a task's observation size, from the deployment's SANDBOX_CAPS
 * (infra/config.ts): what a seed-run may do a step and in all, what one call may do and how long it
 * may take. An ordinary reward reads the observation once or twice, so what it costs grows with the
 * observation's length (a loop over 105 entries, not 11); the budgets grow with it.
 * `obsSize` is every entry a reward is given a step: the observation's, and the task's recorded state's.
 * Counts, not times: the same reward on the same seed ends the same way on any machine, under any load.
 */
import { SANDBOX_CAPS } from '../../infra/config.ts';

/** Operations a seed-run may do in the sandbox per environment step it trains. */
export function sandboxOperationsPerStep(obsSize: number): number {
  return SANDBOX_CAPS.seedRunOperationsPerStep + obsSize * SANDBOX_CAPS.seedRunOperationsPerObservation;
}

/** A seed-run's operations in all: its steps at the budget a step, at least SANDBOX_CAPS.seedRunMinOperations. */
export function sandboxOperationsFor(steps: number, obsSize: number): number {
  return Math.max(SANDBOX_CAPS.seedRunMinOperations, steps * sandboxOperationsPerStep(obsSize));
}

/** Operations one call may do: a rollout at the budget a step (its headroom with it), at least SANDBOX_CAPS.callOperations. */
export function sandboxCallOperations(obsSize: number): number {
  return Math.max(SANDBOX_CAPS.callOperations, SANDBOX_CAPS.callTransitions * sandboxOperationsPerStep(obsSize));
}

/** The wall-clock backstop of one call: as much more than SANDBOX_CAPS.callDeadlineMs as the call may do more operations. */
export function sandboxCallDeadlineMs(obsSize: number): number {
  return Math.ceil((SANDBOX_CAPS.callDeadlineMs * sandboxCallOperations(obsSize)) / SANDBOX_CAPS.callOperations);
}
