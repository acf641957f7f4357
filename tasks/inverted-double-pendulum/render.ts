/** InvertedDoublePendulum on the card: the cart and both poles from the side (mujoco-common/render.ts), the tip's height and the cart's position, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { mujocoRenderer } from '../mujoco-common/render.ts';
import { readTaskFile } from '../task-files.ts';
import { FRAME_SKIP, MIN_TIP_HEIGHT } from './environment.ts';

/** qpos from an observation: the cart's x, and each angle from its sine and cosine. */
const qposOf = (o: number[]): number[] => [o[0], Math.atan2(o[1], o[3]), Math.atan2(o[2], o[4])];

export const INVERTED_DOUBLE_PENDULUM_RENDERER: CardRenderer = mujocoRenderer({
  xml: () => readTaskFile('inverted-double-pendulum', 'inverted_double_pendulum.xml'),
  dt: 0.01 * FRAME_SKIP,
  qpos: (episode) => episode.observations.map(qposOf),
  progress: { label: 'cart position (m)', of: (qpos) => qpos[0] },
  // The tip: 0.6 m along each pole.
  height: { label: 'tip height (m)', of: (qpos) => 0.6 * Math.cos(qpos[1]) + 0.6 * Math.cos(qpos[1] + qpos[2]), floor: MIN_TIP_HEIGHT },
  noun: 'double-pendulum',
});
