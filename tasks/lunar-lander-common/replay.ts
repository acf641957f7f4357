/**
 * Replaying a recorded Gymnasium LunarLander episode (shared/golden/lunar_golden.py) through our
 * environment: the recording holds every value the environment drew (reset: terrain, initial
 * push, the no-op step's dispersion; each step: its dispersion), which are fed back in order, and
 * the lander body's state after every step, which `state` is compared with.
 */
import { z } from 'zod';
import { RecordedEpisodeSchema, RecordedStepSchema, type RecordedEpisode, type RecordedStep, type Replay } from '../conformance.ts';
import { RecordedDraws, landerValues, type LunarLanderEnv } from './physics.ts';

/** The golden `lander` record: the body's position, angle, velocities and the legs' contact. */
export const LanderRecordSchema = z.object({
  x: z.number(), y: z.number(), angle: z.number(), vx: z.number(), vy: z.number(), omega: z.number(),
  legs: z.tuple([z.boolean(), z.boolean()]),
});
export type LanderRecord = z.infer<typeof LanderRecordSchema>;

export const LunarStepSchema = RecordedStepSchema.extend({ draws: z.array(z.number()), lander: LanderRecordSchema });
export const LunarEpisodeSchema = RecordedEpisodeSchema.extend({
  reset_draws: z.array(z.number()),
  initial_lander: LanderRecordSchema,
  helipad_y: z.number(),
  steps: z.array(LunarStepSchema).min(1),
});
export const LunarRecordingSchema = z.object({
  task: z.string(),
  source: z.string().optional(),
  max_episode_steps: z.number().optional(),
  episodes: z.array(LunarEpisodeSchema).min(1),
});
export type LunarEpisode = z.infer<typeof LunarEpisodeSchema>;

/** A lander record in the order of `landerValues`: x, y, angle, vx, vy, omega, leg 0, leg 1. */
export function landerRecordValues(l: LanderRecord): number[] {
  return [l.x, l.y, l.angle, l.vx, l.vy, l.omega, l.legs[0] ? 1 : 0, l.legs[1] ? 1 : 0];
}

/** The recorded episode with each step's `state` set from its lander record, for compareEpisode. */
export function withLanderStates(episode: LunarEpisode): RecordedEpisode {
  return { ...episode, steps: episode.steps.map((s) => ({ ...s, state: landerRecordValues(s.lander) })) };
}

/**
 * Our side of a recorded episode: reset with the recorded draws, then every recorded action with
 * its step's draws. `state` is the lander body's values (landerValues).
 */
export function replayLunarLander(env: LunarLanderEnv, recorded: RecordedEpisode): Replay {
  const parsed = LunarEpisodeSchema.safeParse(recorded);
  if (!parsed.success) {
    throw new Error('a LunarLander replay needs the recording\'s reset_draws, initial_lander and every step\'s draws and lander ' +
      '(as shared/golden/lunar_golden.py records them)');
  }
  const episode = parsed.data;
  const resetDraws = new RecordedDraws(episode.reset_draws);
  env.resetWith(0, resetDraws.uniform);
  if (resetDraws.used !== episode.reset_draws.length) {
    throw new Error(`reset drew ${resetDraws.used} values, the recording ${episode.reset_draws.length}`);
  }
  const initialObs = Array.from(env.obs.subarray(0, 8));
  // No auto-reset: the copy keeps the state its final step left, as Gymnasium's env does.
  env.autoReset = false;
  const steps: RecordedStep[] = [];
  const state = env.states[0];
  for (const step of episode.steps) {
    const draws = new RecordedDraws(step.draws);
    state.uniform = draws.uniform;
    env.step(typeof step.action === 'number' ? [step.action] : step.action);
    if (draws.used !== step.draws.length) throw new Error(`step ${steps.length + 1} drew ${draws.used} values, the recording ${step.draws.length}`);
    steps.push({
      action: typeof step.action === 'number' ? step.action : Array.from(env.applied.subarray(0, step.action.length)),
      state: landerValues(state),
      obs: Array.from(env.finalObs.subarray(0, 8)),
      reward: env.reward[0],
      terminated: env.terminated[0] === 1,
      truncated: env.truncated[0] === 1,
    });
    if (env.terminated[0] === 1 || env.truncated[0] === 1) break;
  }
  env.useGenerator(0);
  // The first contact (conformance's afterContact): a leg on the ground, or the step that ended
  // the episode (a crash is the body's contact).
  const touched = episode.steps.findIndex((s) => s.lander.legs.includes(true) || s.terminated || s.truncated);
  const firstContact = touched === -1 ? undefined : touched + 1;
  return { initialObs, steps, recordedStates: episode.steps.map((s) => landerRecordValues(s.lander)), firstContact };
}
