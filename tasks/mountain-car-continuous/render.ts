/**
 * MountainCarContinuous on the card: the car climbing the valley (hill y = sin(3x)) along one
 * greedy episode's positions with the goal flag at 0.45, animated with SMIL (no script); beside it
 * the position and the force over time, and a sentence on how it got there.
 */
import { lineChart } from '../../core/svg.ts';
import { carAnimation } from '../mountain-car-common/car-animation.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { GOAL_POSITION, MAX_ACTION, MAX_POSITION, MIN_ACTION, MIN_POSITION } from './environment.ts';

const GOAL_COLOR = '#16a34a';

function positions(e: EpisodeRecord): number[] {
  return e.observations.map((o) => o[0]);
}

function velocities(e: EpisodeRecord): number[] {
  return e.observations.map((o) => o[1]);
}

function forces(e: EpisodeRecord): number[] {
  return e.actions.map((a) => (typeof a === 'number' ? a : a[0]));
}

/** MountainCar-v0's car, with this task's flag at 0.45. */
function animation(episode: EpisodeRecord, color: string): string {
  return carAnimation({
    chart: 'mountain-car-continuous-animation', title: 'The winner\'s greedy episode, animated',
    positions: positions(episode), color, width: 940, height: 300, min: MIN_POSITION, max: MAX_POSITION, goal: GOAL_POSITION,
  });
}

export const MOUNTAIN_CAR_CONTINUOUS_RENDERER: CardRenderer = {
  animation,

  plots(episode, color) {
    const position = lineChart({
      chart: 'mountain-car-continuous-position', title: 'Position over time', width: 470, height: 280, xLabel: 'step', yLabel: 'position x',
      series: [{ label: 'position', color, points: positions(episode).map((p, i) => [i, p] as [number, number]) }],
      y: [MIN_POSITION, MAX_POSITION], refs: [{ axis: 'y', at: GOAL_POSITION, label: 'goal', color: GOAL_COLOR }],
    });
    const force = lineChart({
      chart: 'mountain-car-continuous-force', title: 'Force applied', width: 470, height: 280, xLabel: 'step', yLabel: 'force',
      series: [{ label: 'force', color, points: forces(episode).map((f, i) => [i, f] as [number, number]) }],
      y: [MIN_ACTION, MAX_ACTION],
    });
    return [position, force];
  },

  story(episode) {
    const xs = positions(episode);
    const vs = velocities(episode);
    if (xs.length === 0) return 'No evaluation episode was recorded.';
    const swings = vs.slice(1).filter((v, i) => Math.sign(v) !== 0 && Math.sign(vs[i]) !== 0 && Math.sign(v) !== Math.sign(vs[i])).length;
    const reachedAt = xs.findIndex((x) => x >= GOAL_POSITION);
    const total = episode.rewards.reduce((sum, reward) => sum + reward, 0);
    const end = reachedAt >= 0
      ? `reaches the goal at step ${reachedAt} with a return of ${total.toFixed(1)}.`
      : `does not reach the goal (highest x = ${Math.max(...xs).toFixed(3)}, return ${total.toFixed(1)}).`;
    return `Starts at x = ${xs[0].toFixed(3)}, turns ${swings} time${swings === 1 ? '' : 's'} to build up speed, and ${end}`;
  },
};
