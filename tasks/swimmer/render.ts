/** Swimmer on the card: the robot seen from above (it moves in the x-y plane), its heading and forward progress, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer } from '../mujoco-common/render.ts';
import { xFromRewards } from '../mujoco-common/progress.ts';
import { readTaskFile } from '../task-files.ts';
import { CTRL_COST_WEIGHT, FRAME_SKIP } from './environment.ts';

const DT = 0.01 * FRAME_SKIP;

export const SWIMMER_RENDERER: CardRenderer = mujocoRenderer({
  xml: () => readTaskFile('swimmer', 'swimmer.xml'),
  dt: DT,
  /**
   * Neither x nor y is observed: x is rebuilt from the forward reward (exact to float32), y from the
   * y velocity at each step's two ends (observation 4), for the drawing only; the rest is qpos[2:].
   */
  qpos: (episode) => {
    const xs = xFromRewards(episode, { dt: DT, healthyReward: 0, ctrlCostWeight: CTRL_COST_WEIGHT });
    let y = 0;
    return episode.observations.map((o, t) => {
      if (t > 0) y += ((episode.observations[t - 1][4] + o[4]) / 2) * DT;
      return [xs[t], y, ...o.slice(0, 3)];
    });
  },
  progress: { label: 'metres forward', of: (qpos) => qpos[0] },
  height: { label: 'heading (rad, 0 facing +x)', of: (qpos) => qpos[2] },
  noun: 'swimmer',
  view: 'top',
  timeLimitWords: 'swims to the time limit',
});
