/**
 * The golden MuJoCo recording format (shared/golden/mujoco/README.md: Gymnasium's v5 files on native
 * MuJoCo 2.2.2): each step's action, qpos, qvel, warm start, observation, reward, Gymnasium's info
 * and endings. conformance.ts beside this file checks a task against it.
 */
import { z } from 'zod';
import { RecordedEpisodeSchema, RecordedStepSchema, type RecordedEpisode } from '../conformance.ts';

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

/** The recorded policy's name: the text before its first colon ("uniform_random", "pd_posture"). */
export const policyName = (episode: Pick<MujocoEpisode, 'policy'>): string => (episode.policy ?? 'unknown').split(':')[0].trim();

/** A recorded episode in the golden MuJoCo format, or a clear error naming what is missing. */
export function mujocoEpisode(recorded: RecordedEpisode): MujocoEpisode {
  const parsed = MujocoEpisodeSchema.safeParse(recorded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`a MuJoCo replay needs the golden format (shared/golden/mujoco/README.md): ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
