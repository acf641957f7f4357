/** HalfCheetah on the card: the robot's side view (mujoco-common/render.ts), its torso's angle and forward progress, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer } from '../mujoco-common/render.ts';
import { torsoXs } from '../mujoco-common/progress.ts';
import { readTaskFile } from '../task-files.ts';
import { CTRL_COST_WEIGHT, FRAME_SKIP } from './environment.ts';

const DT = 0.01 * FRAME_SKIP;

export const HALF_CHEETAH_RENDERER: CardRenderer = mujocoRenderer({
  xml: () => readTaskFile('half-cheetah', 'half_cheetah.xml'),
  dt: DT,
  // The torso's x is not observed: the recorded state's (rebuilt from the forward reward in older results); the observation's first 8 entries are qpos[1:].
  qpos: (episode) => {
    const xs = torsoXs(episode, { dt: DT, healthyReward: 0, ctrlCostWeight: CTRL_COST_WEIGHT });
    return episode.observations.map((o, t) => [xs[t], ...o.slice(0, 8)]);
  },
  progress: { label: 'metres forward', of: (qpos) => qpos[0] },
  height: { label: 'torso angle (rad, on its back past ±1.57)', of: (qpos) => qpos[2] },
  noun: 'cheetah',
  timeLimitWords: 'runs to the time limit',
});
