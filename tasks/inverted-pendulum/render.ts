/** InvertedPendulum on the card: the cart and pole from the side (mujoco-common/side-view.ts), the pole's angle and the cart's position, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer } from '../mujoco-common/render.ts';
import { readTaskFile } from '../task-files.ts';
import { FRAME_SKIP, MAX_ANGLE } from './environment.ts';

export const INVERTED_PENDULUM_RENDERER: CardRenderer = mujocoRenderer({
  xml: () => readTaskFile('inverted-pendulum', 'inverted_pendulum.xml'),
  dt: 0.02 * FRAME_SKIP,
  // The observation is qpos then qvel.
  qpos: (episode) => episode.observations.map((o) => o.slice(0, 2)),
  progress: { label: 'cart position (m)', of: (qpos) => qpos[0] },
  height: { label: `pole angle (rad, ends past ±${MAX_ANGLE})`, of: (qpos) => qpos[1] },
  noun: 'pendulum',
});
