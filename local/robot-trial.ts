/**
 * Before `eureka new-task --xml` says a folder "runs as it stands": the folder is loaded as every
 * command loads one from EUREKA_TASK_PATH and stepped as a reward's sandbox check steps it (4,096
 * transitions of random actions, both of the check's draws, functions/train-seed/check-reward.ts).
 * A robot whose simulation goes unstable under them (a gear of 1e9, a timestep too long) would stop
 * every search at its first check; it is refused here instead, with MuJoCo's warning and the joint.
 */
import { sampleTransitions } from '../functions/train-seed/check-reward.ts';
import { InvalidTask } from '../tasks/invalid-task.ts';
import { loadTaskFolder } from '../tasks/registry.ts';
import { RobotRefused } from './robot-task-text.ts';

/** As many transitions as a check samples of each draw, on its seed. */
const TRIAL_SAMPLES = 4096;

export async function tryRobotFolder(taskPath: string, folder: string): Promise<void> {
  const task = await loadTaskFolder(taskPath, folder);
  if (!('id' in task)) throw new RobotRefused(`the folder it wrote does not load: ${task.reason}`);
  try {
    await task.prepare?.();
    for (const draw of ['check', 'first-policy'] as const) sampleTransitions(task, TRIAL_SAMPLES, 0, draw);
  } catch (error) {
    if (!(error instanceof InvalidTask)) throw error;
    throw new RobotRefused(`${error.message} (new-task stepped it under random actions, as a reward's check does: every search would stop at its first check)`);
  }
}
