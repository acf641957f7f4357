/**
 * Conformance against recorded Gymnasium episodes (the golden format of shared/golden/README.md,
 * which tasks/record-gymnasium.py writes): start a copy of the task's environment from the
 * recorded initial state, apply the recorded actions, and measure the largest deviation of every
 * field. `eureka conformance` and the tests both use it.
 */
import { z } from 'zod';
import type { Task, VecEnv } from './contract.ts';
import { VectorEnv } from './vector-env.ts';

const Numbers = z.array(z.number());

/** Loose objects: a task's own fields (LunarLander's draws and lander state) survive the parse. */
export const RecordedStepSchema = z.looseObject({
  action: z.union([z.number(), Numbers]),
  state: Numbers.optional(),
  obs: Numbers,
  reward: z.number(),
  terminated: z.boolean(),
  truncated: z.boolean(),
});

export const RecordedEpisodeSchema = z.looseObject({
  seed: z.number().optional(),
  policy: z.string().optional(),
  initial_state: Numbers.optional(),
  initial_obs: Numbers,
  steps: z.array(RecordedStepSchema).min(1),
});

export const RecordingSchema = z.looseObject({
  task: z.string(),
  source: z.string().optional(),
  max_episode_steps: z.number().optional(),
  episodes: z.array(RecordedEpisodeSchema).min(1),
});

export type RecordedStep = z.infer<typeof RecordedStepSchema>;
export type RecordedEpisode = z.infer<typeof RecordedEpisodeSchema>;
export type Recording = z.infer<typeof RecordingSchema>;

/** The largest absolute deviation of each field over the compared steps, and the flags that disagree. */
export interface Deviation {
  state: number;
  obs: number;
  reward: number;
  /** Steps whose terminated or truncated flag differs. */
  flagMismatches: number;
  /** Steps compared (a replay stops at the recorded episode's end, or at our environment's). */
  steps: number;
  /** The first step (1-based) where a flag differs, or null. */
  firstFlagMismatch: number | null;
}

/** Our side of a recorded episode: the first observation, then every step. */
export interface Replay {
  initialObs: number[];
  steps: RecordedStep[];
  /** The recording's states as the task reads them, where a step has no plain `state` (LunarLander's lander record). */
  recordedStates?: number[][];
}

/** Our replay of a recorded episode: the task's own replayer, or the array-state one. */
export function replayEpisode(task: Task, episode: RecordedEpisode): Replay {
  return task.replay ? task.replay(episode) : replayArrayState(task, episode);
}

const maxAbs = (a: readonly number[] | undefined, b: readonly number[] | undefined): number => {
  if (a === undefined || b === undefined) return 0;
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
  return worst;
};

/**
 * Replays an episode through a classic-control environment (state: one Float64Array per copy),
 * from its recorded initial state; returns our steps in the recorded format.
 */
export function replayArrayState(task: Task, episode: RecordedEpisode): Replay {
  const env: VecEnv = task.gymnasiumEnv(1, 0);
  if (!(env instanceof VectorEnv) || !(env.states[0] instanceof Float64Array)) {
    throw new Error(`${task.id}: its environment keeps no array state; it needs a replayer of its own`);
  }
  if (episode.initial_state === undefined) throw new Error(`${task.id}: the recorded episode has no initial_state`);
  const state = env.states[0] as Float64Array;
  if (episode.initial_state.length !== state.length) {
    throw new Error(`${task.id}: the recorded state has ${episode.initial_state.length} values, the environment's ${state.length}`);
  }
  state.set(episode.initial_state);
  env.restartFromState(0);
  const initialObs = Array.from(env.obs);
  // No auto-reset: the copy keeps the state its final step left, as Gymnasium's env does.
  env.autoReset = false;
  const steps: RecordedStep[] = [];
  for (const recorded of episode.steps) {
    env.step(typeof recorded.action === 'number' ? [recorded.action] : recorded.action);
    steps.push({
      action: recorded.action,
      state: Array.from(state),
      obs: Array.from(env.finalObs),
      reward: env.reward[0],
      terminated: env.terminated[0] === 1,
      truncated: env.truncated[0] === 1,
    });
    if (env.terminated[0] === 1 || env.truncated[0] === 1) break;
  }
  return { initialObs, steps };
}

/** Compares one replay with its recording. */
export function compareEpisode(recorded: RecordedEpisode, replay: Replay): Deviation {
  const ours = replay.steps;
  const deviation: Deviation = { state: 0, obs: maxAbs(recorded.initial_obs, replay.initialObs), reward: 0, flagMismatches: 0, steps: 0, firstFlagMismatch: null };
  const n = Math.max(recorded.steps.length, ours.length);
  for (let t = 0; t < n; t++) {
    const a = recorded.steps[t];
    const b = ours[t];
    if (a === undefined || b === undefined) {
      // One episode ended before the other: that is a flag mismatch at its last step.
      deviation.flagMismatches += 1;
      deviation.firstFlagMismatch ??= t;
      break;
    }
    deviation.steps += 1;
    deviation.state = Math.max(deviation.state, maxAbs(replay.recordedStates?.[t] ?? a.state, b.state));
    deviation.obs = Math.max(deviation.obs, maxAbs(a.obs, b.obs));
    deviation.reward = Math.max(deviation.reward, Math.abs(a.reward - b.reward));
    if (a.terminated !== b.terminated || a.truncated !== b.truncated) {
      deviation.flagMismatches += 1;
      deviation.firstFlagMismatch ??= t + 1;
    }
  }
  return deviation;
}

/** The worst of several deviations. */
export function worstDeviation(all: Deviation[]): Deviation {
  return all.reduce((w, d) => ({
    state: Math.max(w.state, d.state),
    obs: Math.max(w.obs, d.obs),
    reward: Math.max(w.reward, d.reward),
    flagMismatches: w.flagMismatches + d.flagMismatches,
    steps: w.steps + d.steps,
    firstFlagMismatch: w.firstFlagMismatch ?? d.firstFlagMismatch,
  }), { state: 0, obs: 0, reward: 0, flagMismatches: 0, steps: 0, firstFlagMismatch: null });
}
