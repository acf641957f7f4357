/**
 * Walker2d-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly (mujoco-common/conformance.ts), and the physics two ways, as the golden README
 * found the two MuJoCo versions to agree. The random policy's episodes fall within about 50 steps,
 * before the feet's contacts part 2.2.2 and 3.14: those per step. The posture controller's run for
 * hundreds of steps, where a contact that comes one sub-step apart parts them (3.7e-6 a step,
 * free runs from step 125): those, and the random ones, by distribution. Tolerances: the rules of
 * test/conformance-mujoco-planar.test.ts on the tuning recordings (docs/mujoco.md).
 */
import type { ConformanceReport } from '../contract.ts';
import { RecordingSchema } from '../conformance.ts';
import { logicCheck, perStepCheck } from '../mujoco-common/conformance.ts';
import { compareDistributions, uniformRandom } from '../mujoco-common/distribution.ts';
import type { MujocoEnv } from '../mujoco-common/mujoco-env.ts';
import { mujocoEpisode, type MujocoEpisode } from '../mujoco-common/recording.ts';
import { Walker2dEnv } from './environment.ts';

/** 10x the tuning episodes' worst step of the random policy (3.4e-13), rounded up to a power of ten. */
export const PER_STEP_TOLERANCE = 1e-11;
/** The recorded policy whose episodes are checked per step. */
export const PER_STEP_POLICY = 'uniform_random';

const make = (seed: number): MujocoEnv => new Walker2dEnv(1, seed);

/** The recorded policy's name: the text before its first colon ("uniform_random"). */
export const policyName = (episode: MujocoEpisode): string => (episode.policy ?? 'unknown').split(':')[0].trim();

const DISTRIBUTION = {
  policies: {
    uniform_random: uniformRandom([-1, -1, -1, -1, -1, -1], [1, 1, 1, 1, 1, 1]),
    // The recorder's controller: a = -(1 (qpos[3:] - init_qpos[3:]) + 0.1 qvel[3:]); a[0], a[3] += -2 qpos[2] - 0.2 qvel[2]; clip.
    pd_posture_torso: (env: MujocoEnv) => {
      const [q, v] = [env.qpos(0), env.qvel(0)];
      const torso = -2 * q[2] - 0.2 * v[2];
      return [3, 4, 5, 6, 7, 8].map((k, j) => Math.fround(Math.min(1, Math.max(-1, -(q[k] + 0.1 * v[k]) + (j % 3 === 0 ? torso : 0)))));
    },
  },
  episodes: 40,
  // Hopper's rule, held here too: the tuning episodes' largest was 1.56.
  standardErrors: 3,
};

export function walker2dConformance(recording: unknown): ConformanceReport {
  const episodes = RecordingSchema.parse(recording).episodes.map(mujocoEpisode);
  const random = episodes.filter((e) => policyName(e) === PER_STEP_POLICY);
  const perStep = perStepCheck({ make }, random, PER_STEP_TOLERANCE);
  return {
    episodes: episodes.length,
    steps: episodes.reduce((n, e) => n + e.steps.length, 0),
    checks: [
      logicCheck({ make }, episodes),
      { ...perStep, detail: `the ${random.length} ${PER_STEP_POLICY} episodes: ${perStep.detail}` },
      compareDistributions(make, DISTRIBUTION, episodes),
    ],
  };
}
