/**
 * MountainCar on the card: the car climbing the valley (hill y = sin(3x)) along one greedy
 * episode's positions, animated with SMIL (no script), beside its position over time and its
 * phase portrait, and a sentence on how it got there.
 */
import { lineChart } from '../../core/svg.ts';
import { carAnimation } from '../mountain-car-common/car-animation.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { GOAL_POSITION, MAX_POSITION, MAX_SPEED, MIN_POSITION } from './environment.ts';

const FLAG_COLOR = '#16a34a';

function positions(e: EpisodeRecord): number[] {
  return e.observations.map((o) => o[0]);
}

function velocities(e: EpisodeRecord): number[] {
  return e.observations.map((o) => o[1]);
}

export const MOUNTAIN_CAR_RENDERER: CardRenderer = {
  animation: (episode, color) =>
    carAnimation({ chart: 'car-animation', title: 'The winner\'s greedy episode, animated', positions: positions(episode), color, width: 940, height: 300, min: MIN_POSITION, max: MAX_POSITION, goal: GOAL_POSITION }),

  plots(episode, color) {
    const xs = positions(episode);
    const vs = velocities(episode);
    const position = lineChart({
      chart: 'episode-position', title: 'Position over time', width: 470, height: 280, xLabel: 'step', yLabel: 'position x',
      series: [{ label: 'position', color, points: xs.map((p, i) => [i, p] as [number, number]) }],
      y: [MIN_POSITION, MAX_POSITION], refs: [{ axis: 'y', at: GOAL_POSITION, label: 'flag', color: FLAG_COLOR }],
    });
    const phase = lineChart({
      chart: 'phase-portrait', title: 'Phase portrait: velocity against position', width: 470, height: 280,
      xLabel: 'position x', yLabel: 'velocity', x: [MIN_POSITION, MAX_POSITION], y: [-MAX_SPEED, MAX_SPEED],
      series: [{ label: 'trajectory', color, points: xs.map((p, i) => [p, vs[i]] as [number, number]) }],
      refs: [{ axis: 'x', at: GOAL_POSITION, label: 'flag', color: FLAG_COLOR }],
      markers: xs.length > 0 ? [{ at: [xs[0], vs[0]], label: 'start', color: '#1b1f29' }] : [],
    });
    return [position, phase];
  },

  story(episode) {
    // Only finite values: a broken result must not print NaN into the card.
    const xs = positions(episode).filter(Number.isFinite);
    const vs = velocities(episode).filter(Number.isFinite);
    if (xs.length === 0) return 'No evaluation episode was recorded.';
    const swings = vs.slice(1).filter((v, i) => Math.sign(v) !== 0 && Math.sign(vs[i]) !== 0 && Math.sign(v) !== Math.sign(vs[i])).length;
    const reachedAt = xs.findIndex((x) => x >= GOAL_POSITION);
    const end = reachedAt >= 0 ? `reaches the flag at step ${reachedAt}.` : `does not reach the flag (highest x = ${Math.max(...xs).toFixed(3)}).`;
    return `Starts at x = ${xs[0].toFixed(3)}, turns ${swings} time${swings === 1 ? '' : 's'} to build up speed, and ${end}`;
  },
};
