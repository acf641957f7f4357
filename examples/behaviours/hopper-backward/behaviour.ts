/**
 * Hopper-Backward-v0: a behaviour kept outside the repository (docs/behaviours.md), Gymnasium's
 * Hopper asked to hop backwards. The model reads this file beside Hopper's documented environment.
 *
 * ## What changes of Hopper-v5
 * - Time limit: 500 steps (4 s). Termination and reset: Hopper-v5's (it falls, the episode ends).
 *
 * ## Success
 * The hopper stays healthy all 500 steps and its torso's recorded x at the end is at least 2 m
 * behind (along -x) its x at the start.
 *
 * ## Progress
 * Metres the torso moved backwards: its recorded x at the start less at the end.
 */
import { metresForward, stayedHealthy, type Episode } from 'eureka-serverless/task';

export const SENTENCE = 'Hop backwards: move along -x, away from the way the hopper faces, without falling.';
export const MAX_EPISODE_STEPS = 500;
export const SUCCESS_METRES = 2;

export const metresBackward = (e: Episode): number => -metresForward(e);
export const hoppedBackward = (e: Episode): boolean => stayedHealthy(e, MAX_EPISODE_STEPS) && metresBackward(e) >= SUCCESS_METRES;
