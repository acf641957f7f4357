/**
 * Ant on the card: seen from above (mujoco-common/top-render.ts), the frame following the torso,
 * its path traced; beside it the metres forward and the torso's height over time, and a sentence.
 */
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { recordedFromStart } from '../mujoco-common/progress.ts';
import { topRenderer, type TopRendererOptions } from '../mujoco-common/top-render.ts';
import { readTaskFile } from '../task-files.ts';
import { FRAME_SKIP, HEALTHY_Z_RANGE } from './environment.ts';

const DT = 0.01 * FRAME_SKIP;

/**
 * The torso's x and y are not observed: the recorded state's, from the start. A result stored
 * before the tasks recorded state integrates the x and y velocities (observation 13 and 14) after
 * each step by the trapezoid rule instead; the rest of qpos is observation 0-12.
 */
export function antQpos(episode: EpisodeRecord): number[][] {
  const [xs, ys] = [recordedFromStart(episode, 0), recordedFromStart(episode, 1)];
  let [x, y] = [0, 0];
  return episode.observations.map((o, t) => {
    if (t > 0) {
      const before = episode.observations[t - 1];
      x += (before[13] + o[13]) / 2 * DT;
      y += (before[14] + o[14]) / 2 * DT;
    }
    return [xs?.[t] ?? x, ys?.[t] ?? y, ...o.slice(0, 13)];
  });
}

const OPTIONS: TopRendererOptions = {
  xml: () => readTaskFile('ant', 'ant.xml'),
  dt: DT,
  qpos: antQpos,
  frame: { span: 4, grid: 1, follow: (q) => [q[0], q[1]] },
  path: { label: 'the torso\'s path', of: (q) => [q[0], q[1]] },
  plots: [
    { label: 'metres forward', of: (q) => q[0] },
    { label: 'torso height (m)', of: (q) => q[2], ref: HEALTHY_Z_RANGE[0] },
  ],
  story(episode, qposes) {
    const steps = episode.actions.length;
    const [x, y] = qposes[qposes.length - 1];
    const ending = episode.terminated ? `its torso leaves 0.2-1.0 m high at step ${steps} (the episode ends)` : `it stays up to the time limit, ${steps} steps`;
    return `The ant walks ${x.toFixed(2)} m forward and ${Math.abs(y).toFixed(2)} m ${y >= 0 ? 'left' : 'right'} (${(x / (steps * DT)).toFixed(2)} m/s forward); ${ending}.`;
  },
  noun: 'ant',
};

export const ANT_RENDERER: CardRenderer = topRenderer(OPTIONS);
/** Without the line where Ant-v5's termination ends an episode: for a behaviour whose overrides change it. */
export const ANT_RENDERER_ANY_ENDING: CardRenderer = topRenderer({ ...OPTIONS, plots: [OPTIONS.plots[0], { ...OPTIONS.plots[1], ref: undefined }] });
