/** Ant on the card: the robot's side view (mujoco-common/render.ts), its height and forward progress, and a sentence. */
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { mujocoRenderer } from '../mujoco-common/render.ts';
import { readTaskFile } from '../task-files.ts';
import { FRAME_SKIP } from './environment.ts';

const DT = 0.01 * FRAME_SKIP;

/**
 * The torso's x and y are not observed: the x and y velocities (observation 13 and 14) after
 * each step, integrated by the trapezoid rule, place it; the rest of qpos is observation 0-12.
 */
export function antQpos(episode: EpisodeRecord): number[][] {
  let [x, y] = [0, 0];
  return episode.observations.map((o, t) => {
    if (t > 0) {
      const before = episode.observations[t - 1];
      x += (before[13] + o[13]) / 2 * DT;
      y += (before[14] + o[14]) / 2 * DT;
    }
    return [x, y, ...o.slice(0, 13)];
  });
}

export const ANT_RENDERER: CardRenderer = mujocoRenderer({
  xml: () => readTaskFile('ant', 'ant.xml'),
  dt: DT,
  qpos: antQpos,
  progress: { label: 'metres forward', of: (qpos) => qpos[0] },
  height: { label: 'torso height (m)', of: (qpos) => qpos[2], floor: 0.2 },
  noun: 'ant',
});
