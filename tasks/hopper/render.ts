/** Hopper on the card: the robot's side view (mujoco-common/side-view.ts), its height and forward progress, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer, type MujocoRendererOptions } from '../mujoco-common/render.ts';
import { torsoXs } from '../mujoco-common/progress.ts';
import { FRAME_SKIP, HEALTHY_REWARD, CTRL_COST_WEIGHT } from './environment.ts';
import { readTaskFile } from '../task-files.ts';

const DT = 0.002 * FRAME_SKIP;

const OPTIONS: MujocoRendererOptions = {
  xml: () => readTaskFile('hopper', 'hopper.xml'),
  dt: DT,
  // The torso's x is not observed: the recorded state's (rebuilt from the forward reward in older results); the observation's first 5 entries are qpos[1:].
  qpos: (episode) => {
    const xs = torsoXs(episode, { dt: DT, healthyReward: HEALTHY_REWARD, ctrlCostWeight: CTRL_COST_WEIGHT });
    return episode.observations.map((o, t) => [xs[t], ...o.slice(0, 5)]);
  },
  progress: { label: 'metres forward', of: (qpos) => qpos[0] },
  height: { label: 'torso height (m)', of: (qpos) => qpos[1], floor: 0.7 },
  noun: 'hopper',
};

export const HOPPER_RENDERER: CardRenderer = mujocoRenderer(OPTIONS);
/** Without the line where Hopper-v5's termination ends an episode: for a behaviour whose overrides change it. */
export const HOPPER_RENDERER_ANY_ENDING: CardRenderer = mujocoRenderer({ ...OPTIONS, height: { ...OPTIONS.height, floor: undefined } });
