/**
 * HalfCheetah-Backward-v0: Gymnasium's HalfCheetah, asked to run backwards. This file is what the
 * model reads beside the robot's documented environment (tasks/half-cheetah/environment.ts): the
 * sentence, what changes of the robot, and the trusted test and progress of an episode.
 *
 * ## What changes of HalfCheetah-v5
 * Nothing of the robot: its reset, its 1,000-step time limit (50 s at 0.05 s a step), no
 * termination. Only what is asked: its own reward pays for running forward, along +x.
 *
 * ## Success (fixed before any search)
 * The torso's recorded x at the end of the episode is at least 50 m behind (along -x) its x at
 * the start: 1 m/s backwards on average over the 50 s, half of what HalfCheetah-v5's success asks
 * forwards (100 m), since the cheetah's legs are built to run forwards. Upright or not.
 *
 * ## Progress
 * Metres the torso moved backwards over the episode: its recorded x at the start less at the end.
 */
import type { Episode } from '../contract.ts';
import { metresForward } from '../mujoco-common/healthy-episode.ts';

export const SENTENCE = 'Run backwards: move along -x, away from the direction the cheetah faces, as far as it can in its 1,000 steps (50 s).';

/** Metres behind its start a successful episode ends, at least. */
export const SUCCESS_METRES = 50;

/** Metres the torso moved backwards (along -x): its recorded x at the start less at the end. */
export function metresBackward(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>): number {
  return -metresForward(e);
}

export function ranBackward(e: Episode): boolean {
  return metresBackward(e) >= SUCCESS_METRES;
}
