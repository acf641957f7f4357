/**
 * Go1-Walk-v0: what the quadruped is asked, and how an episode is judged. Fixed in words before any
 * search or training ran; task.ts declares the rest (observation, actions, reset) from the XML.
 *
 * ## The episode
 * 500 steps of 0.02 s (10 s; 10 MuJoCo steps of 2 ms each), from the standing keyframe `home` with
 * uniform noise of ±0.02 on every qpos and qvel entry. It ends early when the trunk falls: its
 * height at or below 0.2 m, or its roll or pitch at or beyond ±0.5 rad (the robot stands with its
 * trunk at 0.26 m, level).
 *
 * ## Success (fixed before any search)
 * The robot walks forward at 0.5 m/s for 10 s without falling: the episode runs all 500 steps, at
 * every step (the reset included) the trunk is upright (recorded height above 0.2 m, recorded roll
 * and pitch within ±0.5 rad), and the trunk's recorded x at the end is at least 5 m beyond its x at
 * the start (a mean of 0.5 m/s along +x over the 10 s). Standing, falling, trotting in place,
 * walking slower, walking backwards or sideways, or a fast start and then a fall all fail.
 *
 * ## Progress
 * Metres the trunk moved along +x over the episode (its recorded x at the end less at the start).
 * A fall ends the episode, so these are metres made upright; success needs 5 m and all 500 steps.
 */
import type { Episode } from '../contract.ts';

export const SENTENCE = 'Walk forward along +x at 0.5 m/s for 10 s without falling: the trunk stays above 0.2 m, its roll and pitch within ±0.5 rad.';

/** Seconds per environment step: 10 MuJoCo steps of the XML's 2 ms. */
export const DT = 0.02;
export const FRAME_SKIP = 10;
/** 10 s. */
export const MAX_EPISODE_STEPS = 500;
/** The trunk's height must stay above this (m). */
export const MIN_HEIGHT = 0.2;
/** Its roll and pitch must stay within ±this (rad). */
export const MAX_TILT = 0.5;
/** The mean forward speed asked for (m/s), over the whole episode: 5 m in 10 s. */
export const SPEED = 0.5;
export const SUCCESS_METRES = SPEED * MAX_EPISODE_STEPS * DT;

/** Recorded state (task.ts): the trunk's x, y, z (m), roll, pitch and heading (rad). */
export const RECORDED = { x: 0, y: 1, z: 2, roll: 3, pitch: 4, heading: 5 } as const;

type Recorded = Pick<Episode, 'recorded' | 'recordSize' | 'length'>;

const at = (e: Recorded, t: number, k: number): number => e.recorded[t * e.recordSize + k];

/** Upright at step t: the trunk above MIN_HEIGHT, its roll and pitch within ±MAX_TILT (the termination's ranges). */
export function uprightAt(e: Recorded, t: number): boolean {
  return at(e, t, RECORDED.z) > MIN_HEIGHT && Math.abs(at(e, t, RECORDED.roll)) < MAX_TILT && Math.abs(at(e, t, RECORDED.pitch)) < MAX_TILT;
}

/** Metres the trunk moved along +x from the start to the end of the episode. */
export function metresWalked(e: Recorded): number {
  return at(e, e.length, RECORDED.x) - at(e, 0, RECORDED.x);
}

export function walked(e: Episode): boolean {
  if (e.terminated || e.length < MAX_EPISODE_STEPS) return false;
  for (let t = 0; t <= e.length; t++) if (!uprightAt(e, t)) return false;
  return metresWalked(e) >= SUCCESS_METRES;
}
