/** Reacher on the card: the arm and the target seen from above (mujoco-common/top-render.ts), the fingertip's distance to the target, and a sentence. */
import type { CardRenderer } from '../contract.ts';
import { topRenderer } from '../mujoco-common/top-render.ts';
import { readTaskFile } from '../task-files.ts';
import { FRAME_SKIP } from './environment.ts';

/** qpos from an observation: each angle from its cosine and sine, the target's x and y. */
const qposOf = (o: number[]): number[] => [Math.atan2(o[2], o[0]), Math.atan2(o[3], o[1]), o[4], o[5]];

/** The fingertip's distance to the target (m), from a qpos: 0.1 m and 0.11 m along the two links. */
function distance(q: number[]): number {
  const x = 0.1 * Math.cos(q[0]) + 0.11 * Math.cos(q[0] + q[1]);
  const y = 0.1 * Math.sin(q[0]) + 0.11 * Math.sin(q[0] + q[1]);
  return Math.hypot(x - q[2], y - q[3]);
}

export const REACHER_RENDERER: CardRenderer = topRenderer({
  xml: () => readTaskFile('reacher', 'reacher.xml'),
  dt: 0.01 * FRAME_SKIP,
  qpos: (episode) => episode.observations.map(qposOf),
  frame: { span: 0.7, grid: 0.1, centre: [0, 0] },
  plots: [
    { label: 'fingertip to target (m)', of: distance },
    { label: 'first link\'s angle (rad)', of: (q) => q[0] },
  ],
  story(episode, qposes) {
    const end = distance(qposes[qposes.length - 1]);
    const start = distance(qposes[0]);
    const near = qposes.findIndex((q) => distance(q) < 0.02);
    return `The arm starts ${(100 * start).toFixed(1)} cm from the target and ends ${(100 * end).toFixed(1)} cm from it` +
      `${near < 0 ? ', never within 2 cm' : `, first within 2 cm at step ${near}`}, after ${episode.actions.length} steps.`;
  },
  noun: 'reacher',
});
