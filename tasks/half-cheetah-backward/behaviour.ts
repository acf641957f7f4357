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
 * The torso's recorded x at the end of the episode is at least 320 m behind (along -x) its x at
 * the start: 6.4 m/s backwards on average over the 50 s, upright or not.
 *
 * ## Progress
 * Metres the torso moved backwards over the episode: its recorded x at the start less at the end.
 */
import type { Episode } from '../contract.ts';
import { metresForward } from '../mujoco-common/healthy-episode.ts';

export const SENTENCE = 'Run backwards: move along -x, away from the direction the cheetah faces, as far as it can in its 1,000 steps (50 s).';

/**
 * Metres behind its start a successful episode ends, at least. Chosen before any search, as the
 * robots' lines were, on the person's first try's greedy episodes at the budget, seeds 0-4: first
 * fixed at 50 m (half HalfCheetah-v5's forward line), which every episode of every seed but two ran
 * past (they ran 298-360 m: the cheetah runs backwards fast, on its back); at 310 m every seed still
 * reaches it (in 15-100% of its episodes), at 320 m seed 1 (298-311 m) falls short, so 320 m;
 * held out on seeds 5-9 (docs/behaviours.md).
 */
export const SUCCESS_METRES = 320;

/** Metres the torso moved backwards (along -x): its recorded x at the start less at the end. */
export function metresBackward(e: Pick<Episode, 'recorded' | 'recordSize' | 'length'>): number {
  return -metresForward(e);
}

export function ranBackward(e: Episode): boolean {
  return metresBackward(e) >= SUCCESS_METRES;
}
