/**
 * A seed-run trains whole rollouts (the task's environments × steps per environment: 2,048 on
 * most tasks), so a budget between two is trained to the one below (chunk-size.ts's stepsAtBudget;
 * never less than one rollout). Rounding down keeps a seed-run within the budget the estimate and
 * the user's cost ceiling were given; the commands that take a budget say so when they round.
 */
import { ppoConfigFor } from '../core/ppo-config.ts';
import { stepsAtBudget } from '../functions/shared/search/chunk-size.ts';
import type { Task } from '../tasks/contract.ts';

const int = (x: number): string => x.toLocaleString('en-US');

/** The line to print when `steps` is not whole rollouts of the task; undefined when it is. */
export function roundedStepsNote(task: Pick<Task, 'id' | 'ppo'>, steps: number, flag: string): string | undefined {
  const trained = stepsAtBudget(task, steps);
  if (trained === steps) return undefined;
  const { numEnvs, numSteps } = ppoConfigFor(task, 0, 0);
  const rollout = numEnvs * numSteps;
  const above = trained < steps ? `; ${flag} ${int(trained + rollout)} trains ${int(trained + rollout)}` : '';
  return `${flag} ${int(steps)}: a seed-run of ${task.id} trains whole rollouts of ${int(rollout)} steps (${numEnvs} environments × ${numSteps}), ` +
    `so ${int(trained)}${above}`;
}

/** Says on stderr (never stdout: --json stays one object) what a budget will train, if it rounds. */
export function noteRoundedSteps(task: Pick<Task, 'id' | 'ppo'>, steps: number | undefined, flag: string): void {
  const note = steps === undefined ? undefined : roundedStepsNote(task, steps, flag);
  if (note !== undefined) process.stderr.write(`eureka: note: ${note}\n`);
}
