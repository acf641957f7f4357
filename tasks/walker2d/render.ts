/** Walker2d on the card: the robot's side view (mujoco-common/render.ts), its height and forward progress, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer, type MujocoRendererOptions } from '../mujoco-common/render.ts';
import { torsoXs } from '../mujoco-common/progress.ts';
import { readTaskFile } from '../task-files.ts';
import { CTRL_COST_WEIGHT, FRAME_SKIP, HEALTHY_REWARD, HEALTHY_Z_RANGE } from './environment.ts';

const DT = 0.002 * FRAME_SKIP;

const OPTIONS: MujocoRendererOptions = {
  xml: () => readTaskFile('walker2d', 'walker2d_v5.xml'),
  dt: DT,
  // The torso's x is not observed: the recorded state's (rebuilt from the forward reward in older results); the observation's first 8 entries are qpos[1:].
  qpos: (episode) => {
    const xs = torsoXs(episode, { dt: DT, healthyReward: HEALTHY_REWARD, ctrlCostWeight: CTRL_COST_WEIGHT });
    return episode.observations.map((o, t) => [xs[t], ...o.slice(0, 8)]);
  },
  progress: { label: 'metres forward', of: (qpos) => qpos[0] },
  height: { label: 'torso height (m)', of: (qpos) => qpos[1], floor: HEALTHY_Z_RANGE[0] },
  noun: 'walker',
};

export const WALKER2D_RENDERER: CardRenderer = mujocoRenderer(OPTIONS);
/** Without the line where Walker2d-v5's termination ends an episode: for a behaviour whose overrides change it. */
export const WALKER2D_RENDERER_ANY_ENDING: CardRenderer = mujocoRenderer({ ...OPTIONS, height: { ...OPTIONS.height, floor: undefined } });
