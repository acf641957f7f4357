/**
 * Walker2d-OneLeg-v0: Gymnasium's Walker2d, asked to stand on one leg. This file is what the
 * model reads beside the robot's documented environment (tasks/walker2d/environment.ts): the
 * sentence, what changes of the robot, and the trusted test and progress of an episode.
 *
 * ## What changes of Walker2d-v5
 * - Time limit: 500 steps (4 s at 0.008 s a step).
 * - Termination and reset: Walker2d-v5's (the episode ends when the torso drops to 0.8 m, rises to
 *   2 m or tilts 1 rad).
 * - Recorded state: Walker2d's own (torso x, z, angle), then the height of each foot: the z of the
 *   `foot` and `foot_left` bodies (their frames rest at about -0.04 m with the foot flat on the
 *   floor, as MuJoCo places them).
 *
 * ## Success (fixed before any search)
 * The walker stays healthy to the time limit (never terminated), and for 250 steps on end (2 s)
 * one and the same foot is held up, its height at least 0.15 m (19 cm above where it rests), while
 * the torso's x stays within 0.5 m of where it was when that run began: standing, not hopping away.
 *
 * ## Progress
 * The longest such run, in steps (0 to 500; 250 or more with the episode healthy is a success).
 */
import type { Episode } from '../contract.ts';
import type { RecordedEntry } from '../mujoco-common/overrides.ts';

export const SENTENCE = 'Stand on one leg: lift one foot off the floor and hold it up, standing still on the other leg, for at least 2 seconds.';

export const MAX_EPISODE_STEPS = 500;
/** A foot's height (its body's z, m) at which it is held up. */
export const FOOT_UP = 0.15;
/** Steps on end one foot must be held up: 2 s. */
export const HOLD_STEPS = 250;
/** How far (m) the torso may move along x while the foot is held up. */
export const DRIFT = 0.5;

export const FEET: readonly RecordedEntry[] = [
  { name: 'right foot height (m): the foot body\'s z, about -0.04 with the foot flat on the floor', value: { body: 'foot', of: 'z' } },
  { name: 'left foot height (m): the foot_left body\'s z, likewise', value: { body: 'foot_left', of: 'z' } },
];

/** Recorded state: Walker2d's torso x (0), z (1), angle (2), then the right (3) and left (4) foot's height. */
const [X, RIGHT, LEFT] = [0, 3, 4];
const at = (e: Pick<Episode, 'recorded' | 'recordSize'>, t: number, k: number): number => e.recorded[t * e.recordSize + k];

/** The longest run of steps with one and the same foot held up and the torso within DRIFT of its x at the run's start. */
export function longestOneLeg(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>): number {
  let longest = 0;
  for (const foot of [RIGHT, LEFT]) {
    let start = -1;
    for (let t = 1; t <= e.length; t++) {
      const up = at(e, t, foot) >= FOOT_UP;
      if (up && start >= 0 && Math.abs(at(e, t, X) - at(e, start, X)) > DRIFT) start = -1;
      if (up && start < 0) start = t;
      if (!up) start = -1;
      if (start >= 0) longest = Math.max(longest, t - start + 1);
    }
  }
  return longest;
}

export function stoodOnOneLeg(e: Episode): boolean {
  return !e.terminated && e.length >= MAX_EPISODE_STEPS && longestOneLeg(e) >= HOLD_STEPS;
}
