/**
 * Grading is trusted code: the task's real environment, the policy's greedy action (the most
 * likely action, or the Gaussian's mean, which the environment clips to its bounds), and the
 * task's own success test on each episode. The candidate's reward is never called here.
 */
import type { EpisodeRecord, Task, VecEnv } from '../../tasks/contract.ts';
import type { EpisodeEndings } from '../shared/search/types.ts';
import { evaluationEndings } from './episode-stats.ts';
import { EpisodeTracker } from './episodes.ts';
import { forwardJs, prepareJs, scaleObservations, type Network } from './network.ts';

/** Evaluation seeds start far above any training seed, so the two never meet. */
export const EVAL_SEED_OFFSET = 1_000_003;

export interface Grade {
  /** Share of episodes that passed the task's success test. */
  success: number;
  /** Mean length of the successful episodes; null when none succeeded. */
  meanSuccessSteps: number | null;
  /** Mean return on the environment's own reward. */
  meanReturn: number;
  /** The task's progress (tasks/contract.ts), averaged over episodes. */
  progress: number;
  /** The first episode, step by step, for the card. */
  episode: EpisodeRecord;
  /** How the episodes ended (succeeded, terminated otherwise, cut at the time limit) and their mean length. */
  endings: EpisodeEndings;
}

/** Runs `episodes` greedy episodes side by side, each to its end, and grades them. */
export function grade(task: Task, net: Network, theta: Float32Array, seed: number, episodes: number): Grade {
  const envs = task.makeEnv(episodes, EVAL_SEED_OFFSET + seed);
  try {
    return gradeWith(task, envs, net, theta, episodes);
  } finally {
    envs.dispose?.();
  }
}

function gradeWith(task: Task, envs: VecEnv, net: Network, theta: Float32Array, episodes: number): Grade {
  const tracker = new EpisodeTracker(envs, net.obsSize);
  const actor = prepareJs(theta, net.actor);
  const x = new Float32Array(episodes * net.obsSize);
  const out = new Float32Array(episodes * net.actions);
  const actions = new Float32Array(episodes * task.actionSize);
  const graded: Array<{ success: boolean; length: number; return: number; progress: number; terminated: boolean; truncated: boolean }> = new Array(episodes);
  const r = envs.recordSize;
  const first = {
    observations: [Array.from(envs.obs.subarray(0, net.obsSize))], actions: [] as EpisodeRecord['actions'], rewards: [] as number[],
    ...(r > 0 ? { recorded: [Array.from(envs.record.subarray(0, r))] } : {}), info: envs.episodeInfo?.(0),
  };
  let open = episodes;

  while (open > 0) {
    scaleObservations(net, envs.obs, episodes, x);
    forwardJs(actor, x, episodes, out);
    greedyActions(net, out, episodes, actions);
    envs.step(actions);
    if (graded[0] === undefined) recordStep(first, envs, net.obsSize, task.actionSize, task.action.kind === 'discrete');
    for (const { copy, episode } of tracker.afterStep()) {
      if (graded[copy] !== undefined) continue;
      const { length, terminated, truncated } = episode;
      graded[copy] = { success: task.success.test(episode), length, return: episode.return, progress: task.progress.measure(episode), terminated, truncated };
      open -= 1;
    }
  }

  const wins = graded.filter((g) => g.success);
  return {
    success: wins.length / episodes,
    meanSuccessSteps: wins.length > 0 ? mean(wins.map((g) => g.length)) : null,
    meanReturn: mean(graded.map((g) => g.return)),
    progress: mean(graded.map((g) => g.progress)),
    episode: { ...first, success: graded[0].success, terminated: graded[0].terminated, truncated: graded[0].truncated },
    endings: evaluationEndings(graded),
  };
}

/** The greedy action of each copy: the argmax of the logits, or the Gaussian's mean. */
export function greedyActions(net: Network, out: Float32Array, count: number, actions: Float32Array): void {
  if (net.continuous) {
    actions.set(out.subarray(0, count * net.actions));
    return;
  }
  for (let e = 0; e < count; e++) actions[e] = argmax(out, e * net.actions, net.actions);
}

function recordStep(
  record: Pick<EpisodeRecord, 'observations' | 'actions' | 'rewards' | 'recorded'>, envs: VecEnv, obsSize: number, actionSize: number, discrete: boolean,
): void {
  record.observations.push(Array.from(envs.finalObs.subarray(0, obsSize)));
  record.recorded?.push(Array.from(envs.finalRecord.subarray(0, envs.recordSize)));
  record.actions.push(discrete ? envs.applied[0] : Array.from(envs.applied.subarray(0, actionSize)));
  record.rewards.push(envs.reward[0]);
}

function argmax(xs: Float32Array, start: number, n: number): number {
  let best = 0;
  for (let a = 1; a < n; a++) if (xs[start + a] > xs[start + best]) best = a;
  return best;
}

function mean(xs: number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
