/**
 * Conformance against recorded Gymnasium episodes (the golden format of shared/golden/README.md,
 * which tasks/record-gymnasium.py writes): start a copy of the task's environment from the
 * recorded initial state, apply the recorded actions, and measure the largest deviation of every
 * field (conformance-compare.ts). `eureka conformance` and the tests both use it.
 */
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import type { Task, VecEnv } from './contract.ts';
import { VectorEnv } from './vector-env.ts';

export { compareEpisode, DEFAULT_TOLERANCE, describeTolerance, worstDeviation, withinTolerance, type Deviation, type FieldDeviation } from './conformance-compare.ts';

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
  /** A line naming the original, or (the MuJoCo recordings) the versions it ran. */
  source: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  max_episode_steps: z.number().optional(),
  episodes: z.array(RecordedEpisodeSchema).min(1),
});

export type RecordedStep = z.infer<typeof RecordedStepSchema>;
export type RecordedEpisode = z.infer<typeof RecordedEpisodeSchema>;
export type Recording = z.infer<typeof RecordingSchema>;

/** A recording's text: gzipped (by its magic bytes) or plain JSON. */
export function recordingText(bytes: Uint8Array): string {
  const gzipped = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return Buffer.from(gzipped ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Our side of a recorded episode: the first observation, then every step. */
export interface Replay {
  initialObs: number[];
  steps: RecordedStep[];
  /** The recording's states as the task reads them, where a step has no plain `state` (LunarLander's lander record). */
  recordedStates?: number[][];
  /**
   * The first step (1-based) of the recorded episode in which anything touched (a leg, the
   * body), for tasks whose engine solves contacts: the tolerance's `afterContact` holds from
   * it on. Absent when nothing touched, or the task has no contacts.
   */
  firstContact?: number;
}

/** Our replay of a recorded episode: the task's own replayer, or the array-state one. */
export function replayEpisode(task: Task, episode: RecordedEpisode): Replay {
  const eachStep = task.conformanceTolerance?.replayFrom === 'each-step';
  if (task.replay) {
    if (eachStep) throw new Error(`${task.id}: replayFrom 'each-step' needs the array-state replayer, not the task's own replay`);
    return task.replay(episode);
  }
  return replayArrayState(task, episode, eachStep);
}

/**
 * Replays an episode through a classic-control environment (state: one Float64Array per copy),
 * from its recorded initial state; returns our steps in the recorded format. With `eachStep`,
 * every step starts from the recorded state before it instead of from our previous step.
 */
export function replayArrayState(task: Task, episode: RecordedEpisode, eachStep = false): Replay {
  const env: VecEnv = task.gymnasiumEnv(1, 0);
  if (!(env instanceof VectorEnv) || !(env.states[0] instanceof Float64Array)) {
    throw new Error(`${task.id}: its environment keeps no array state; it needs a replayer of its own`);
  }
  const state = env.states[0] as Float64Array;
  const setState = (values: number[] | undefined, what: string): void => {
    if (values === undefined) throw new Error(`${task.id}: the recorded episode has no ${what}`);
    if (values.length !== state.length) throw new Error(`${task.id}: the recorded ${what} has ${values.length} values, the environment's ${state.length}`);
    state.set(values);
  };
  setState(episode.initial_state, 'initial_state');
  env.restartFromState(0);
  const initialObs = Array.from(env.obs);
  // No auto-reset: the copy keeps the state its final step left, as Gymnasium's env does.
  env.autoReset = false;
  const steps: RecordedStep[] = [];
  for (const [t, recorded] of episode.steps.entries()) {
    if (eachStep && t > 0) setState(episode.steps[t - 1].state, `state of step ${t}`);
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
