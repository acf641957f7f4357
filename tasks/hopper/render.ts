/** Hopper on the card: the robot's side view (mujoco-common/side-view.ts), its height and forward progress, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer } from '../mujoco-common/render.ts';
import { FRAME_SKIP, HEALTHY_REWARD, CTRL_COST_WEIGHT } from './environment.ts';
import { readTaskFile } from '../task-files.ts';

const DT = 0.002 * FRAME_SKIP;

export const HOPPER_RENDERER: CardRenderer = mujocoRenderer({
  xml: () => readTaskFile('hopper', 'hopper.xml'),
  dt: DT,
  /**
   * The torso's x is not observed: each step's displacement is its forward reward times dt, and
   * the forward reward is the environment's reward less its survive and control terms (exact to float32).
   */
  qpos: (episode) => {
    let x = 0;
    return episode.observations.map((o, t) => {
      if (t > 0) {
        const a = episode.actions[t - 1];
        const torques = typeof a === 'number' ? [a] : a;
        const ctrl = CTRL_COST_WEIGHT * torques.reduce((s, u) => s + u * u, 0);
        const last = t === episode.observations.length - 1 && episode.terminated;
        x += (episode.rewards[t - 1] - (last ? 0 : HEALTHY_REWARD) + ctrl) * DT;
      }
      return [x, ...o.slice(0, 5)];
    });
  },
  progress: { label: 'metres forward', of: (qpos) => qpos[0] },
  height: { label: 'torso height (m)', of: (qpos) => qpos[1], floor: 0.7 },
  noun: 'hopper',
});
