/**
 * Hopper-FrontFlip-v0: Gymnasium's Hopper, asked for a forward somersault. This file is what the
 * model reads beside the robot's documented environment (tasks/hopper/environment.ts): the
 * sentence, what changes of the robot, and the trusted test and progress of an episode.
 *
 * ## What changes of Hopper-v5
 * - Termination: none. Hopper-v5 ends an episode once the torso tilts 0.2 rad, which a flip must
 *   pass through; here only the time limit ends it (Gymnasium's `terminate_when_unhealthy=False`:
 *   its own reward still pays its survive term only while Gymnasium's healthy test holds).
 * - Time limit: 300 steps (2.4 s at 0.008 s a step).
 * - Reset and observation: Hopper-v5's. The torso's angle (observation 1, recorded entry 2) is
 *   a hinge's, so it keeps counting past ±π: one full forward turn takes it from 0 to 2π
 *   (MuJoCo's hinge about +y: a positive angle pitches the torso's top toward +x, the way the
 *   hopper faces and hops).
 *
 * ## Success (fixed before any search)
 * The torso turns one full turn forwards (its angle is positive leaning forward) and the hopper
 * lands on its foot: in each of the episode's last 100 steps (0.8 s) the torso is higher than
 * 0.7 m and its angle within 0.2 rad of 2π, Gymnasium's own healthy height and tilt after a full
 * turn. A flip backwards (-2π), a turn short of one, one too many, or a fall after landing fail.
 *
 * ## Progress
 * How far the flip got: the largest forward turn reached, as a share of a full turn (at most 1),
 * plus the share of the last 100 steps spent landed as above (0 to 2; 2 is a success).
 */
import type { Episode } from '../contract.ts';

export const SENTENCE = 'Do a forward somersault (a front flip): jump, turn the torso one full turn forwards in the air, head over heels, and land on the foot, standing.';

export const MAX_EPISODE_STEPS = 300;
/** One full turn of the torso, forwards (the hinge's angle is positive leaning forward). */
export const FULL_TURN = 2 * Math.PI;
/** Gymnasium's healthy tilt and height, about a full turn. */
export const LANDED_TILT = 0.2;
export const LANDED_HEIGHT = 0.7;
/** The last steps that must all be landed: 0.8 s. */
export const LANDED_STEPS = 100;

/** Recorded state (Hopper's): torso x (0), height (1), angle (2). */
const [Z, ANGLE] = [1, 2];

const at = (e: Pick<Episode, 'recorded' | 'recordSize'>, t: number, k: number): number => e.recorded[t * e.recordSize + k];

/** Landed at step t: torso above 0.7 m, its angle within 0.2 rad of a full forward turn. */
export function landedAt(e: Pick<Episode, 'recorded' | 'recordSize'>, t: number): boolean {
  return at(e, t, Z) > LANDED_HEIGHT && Math.abs(at(e, t, ANGLE) - FULL_TURN) < LANDED_TILT;
}

/** Of the episode's last LANDED_STEPS steps, those landed. */
export function landedSteps(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>): number {
  let landed = 0;
  for (let t = Math.max(1, e.length - LANDED_STEPS + 1); t <= e.length; t++) if (landedAt(e, t)) landed += 1;
  return landed;
}

/** The largest forward turn over the episode, from the torso's angle at the start, as a share of a full turn, at most 1. */
export function turned(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>): number {
  let most = 0;
  for (let t = 1; t <= e.length; t++) most = Math.max(most, at(e, t, ANGLE) - at(e, 0, ANGLE));
  return Math.min(1, most / FULL_TURN);
}

export function flipped(e: Episode): boolean {
  return e.length >= LANDED_STEPS && landedSteps(e) === LANDED_STEPS;
}

export function flipProgress(e: Episode): number {
  return turned(e) + landedSteps(e) / LANDED_STEPS;
}
