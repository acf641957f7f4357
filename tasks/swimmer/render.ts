/** Swimmer on the card: the robot seen from above (it moves in the x-y plane: mujoco-common/top-render.ts), its progress and heading, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { topRenderer } from '../mujoco-common/top-render.ts';
import { recordedFromStart, torsoXs } from '../mujoco-common/progress.ts';
import { readTaskFile } from '../task-files.ts';
import { CTRL_COST_WEIGHT, FRAME_SKIP } from './environment.ts';

const DT = 0.01 * FRAME_SKIP;

export const SWIMMER_RENDERER: CardRenderer = topRenderer({
  xml: () => readTaskFile('swimmer', 'swimmer.xml'),
  dt: DT,
  /**
   * Neither x nor y is observed: both are the recorded state's. A result stored before the tasks
   * recorded state rebuilds x from the forward reward (exact to float32) and y from the y velocity
   * at each step's two ends (observation 4), for the drawing only; the rest is qpos[2:].
   */
  qpos: (episode) => {
    const xs = torsoXs(episode, { dt: DT, healthyReward: 0, ctrlCostWeight: CTRL_COST_WEIGHT });
    const ys = recordedFromStart(episode, 1);
    let y = 0;
    return episode.observations.map((o, t) => {
      if (t > 0) y += ((episode.observations[t - 1][4] + o[4]) / 2) * DT;
      return [xs[t], ys?.[t] ?? y, ...o.slice(0, 3)];
    });
  },
  // The swimmer is 3 m long; the frame follows its torso's joint (the middle of the body at the start).
  frame: { span: 4, grid: 1, follow: (q) => [q[0], q[1]] },
  path: { label: 'the torso\'s path', of: (q) => [q[0], q[1]] },
  plots: [
    { label: 'metres forward', of: (q) => q[0] },
    { label: 'heading (rad, 0 facing +x)', of: (q) => q[2] },
  ],
  story(episode, qposes) {
    const moved = qposes[qposes.length - 1][0] - qposes[0][0];
    const steps = episode.actions.length;
    return `The swimmer swims to the time limit, ${steps} steps, ${moved.toFixed(2)} metres forward (${(moved / (steps * DT)).toFixed(2)} per second).`;
  },
  noun: 'swimmer',
});
