/**
 * Ant-TurnInPlace-v0: Gymnasium's Ant, asked to turn on the spot. This file is what the model
 * reads beside the robot's documented environment (tasks/ant/environment.ts): the sentence, what
 * changes of the robot, and the trusted test and progress of an episode.
 *
 * ## What changes of Ant-v5
 * - Time limit: 500 steps (25 s at 0.05 s a step).
 * - Termination and reset: Ant-v5's (the episode ends when the torso leaves heights 0.2-1.0 m).
 * - Recorded state: Ant's own, the torso's x, y, z and its heading about the vertical (from its
 *   quaternion, 0 facing +x, positive turning left, counting past ±π: one full turn left is 2π).
 *
 * ## Success (fixed before any search)
 * The ant stays healthy to the time limit (never terminated), its heading reaches at least one
 * full turn to the left of where it started (2π rad, counterclockwise seen from above), and its
 * torso never moves more than 1 m (in x and y) from where it started. Turning right, walking a
 * circle, or turning after it has wandered off do not count.
 *
 * ## Progress
 * How far it turned left in place: the largest heading reached, less the start's, before the
 * torso first left the 1 m circle (or the episode ended), in radians.
 */
import type { Episode } from '../contract.ts';

export const SENTENCE = 'Turn in place to the left: spin on the spot, counterclockwise seen from above, at least one full turn, without walking away or flipping over.';

export const MAX_EPISODE_STEPS = 500;
export const FULL_TURN = 2 * Math.PI;
/** How far (m) the torso may move from where it started, in x and y. */
export const CIRCLE_RADIUS = 1;

/** Recorded state (Ant's): torso x (0), y (1), z (2), heading (3). */
const [X, Y, HEADING] = [0, 1, 3];
const at = (e: Pick<Episode, 'recorded' | 'recordSize'>, t: number, k: number): number => e.recorded[t * e.recordSize + k];

/** The steps before the torso first leaves the circle (all of them if it never does). */
export function stepsInCircle(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>): number {
  for (let t = 1; t <= e.length; t++) {
    if (Math.hypot(at(e, t, X) - at(e, 0, X), at(e, t, Y) - at(e, 0, Y)) > CIRCLE_RADIUS) return t - 1;
  }
  return e.length;
}

/** The largest left turn (rad) reached up to step `until`. */
export function turnedLeft(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>, until = e.length): number {
  let most = 0;
  for (let t = 1; t <= until; t++) most = Math.max(most, at(e, t, HEADING) - at(e, 0, HEADING));
  return most;
}

export function turnedInPlace(e: Episode): boolean {
  return !e.terminated && e.length >= MAX_EPISODE_STEPS && stepsInCircle(e) === e.length && turnedLeft(e) >= FULL_TURN;
}

export function turnProgress(e: Episode): number {
  return turnedLeft(e, stepsInCircle(e));
}
