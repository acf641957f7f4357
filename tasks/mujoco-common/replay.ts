/**
 * Replaying a golden MuJoCo episode (shared/golden/mujoco/, recorded from Gymnasium's v5 files on
 * native MuJoCo 2.2.2) for `eureka conformance`: our environment starts from the recorded initial
 * qpos, qvel and warm start and applies the recorded actions (a free run). `state` is qpos then qvel.
 * The per-step and logic checks are in conformance.ts beside this file.
 */
import { z } from 'zod';
import { RecordedEpisodeSchema, RecordedStepSchema, type RecordedEpisode, type RecordedStep, type Replay } from '../conformance.ts';
import type { MujocoEnv } from './mujoco-env.ts';

const Numbers = z.array(z.number());

export const MujocoStepSchema = RecordedStepSchema.extend({
  action: Numbers,
  qpos: Numbers,
  qvel: Numbers,
  qacc_warmstart: Numbers.optional(),
  info: z.record(z.string(), z.number()).optional(),
});

export const MujocoEpisodeSchema = RecordedEpisodeSchema.extend({
  initial_qpos: Numbers,
  initial_qvel: Numbers,
  initial_qacc_warmstart: Numbers.optional(),
  steps: z.array(MujocoStepSchema).min(1),
});
export type MujocoEpisode = z.infer<typeof MujocoEpisodeSchema>;

/** A recorded episode in the golden MuJoCo format, or a clear error naming what is missing. */
export function mujocoEpisode(recorded: RecordedEpisode): MujocoEpisode {
  const parsed = MujocoEpisodeSchema.safeParse(recorded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`a MuJoCo replay needs the golden format (shared/golden/mujoco/README.md): ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** Our free run of a recorded episode: from its initial state, the recorded actions. */
export function replayMujoco(env: MujocoEnv, recorded: RecordedEpisode): Replay {
  const episode = mujocoEpisode(recorded);
  try {
    env.setRecordedState(0, episode.initial_qpos, episode.initial_qvel, episode.initial_qacc_warmstart);
    env.restartFromState(0);
    const initialObs = Array.from(env.obs);
    env.autoReset = false;
    const steps: RecordedStep[] = [];
    for (const recordedStep of episode.steps) {
      env.step(recordedStep.action);
      steps.push({
        action: recordedStep.action,
        state: [...env.qpos(0), ...env.qvel(0)],
        obs: Array.from(env.finalObs),
        reward: env.reward[0],
        terminated: env.terminated[0] === 1,
        truncated: env.truncated[0] === 1,
      });
      if (env.terminated[0] === 1 || env.truncated[0] === 1) break;
    }
    return { initialObs, steps, recordedStates: episode.steps.map((s) => [...s.qpos, ...s.qvel]) };
  } finally {
    env.dispose();
  }
}
