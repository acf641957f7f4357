/**
 * Walker2d-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly (mujoco-common/conformance.ts), and the physics two ways, as the golden README
 * found the two MuJoCo versions to agree. The random policy's episodes fall within about 50 steps,
 * before the feet's contacts part 2.2.2 and 3.14: those per step. The posture controller's run for
 * hundreds of steps, where a contact that comes one sub-step apart parts them (3.7e-6 a step,
 * free runs from step 125): those, and the random ones, by distribution. Tolerances: the rules of
 * test/conformance-mujoco-planar.test.ts on the tuning recordings (docs/mujoco.md). On recordings
 * made on native MuJoCo 3.14.0, our engine's version, every episode per step.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { uniformRandom } from '../mujoco-common/distribution.ts';
import type { MujocoEnv } from '../mujoco-common/mujoco-env.ts';
import { Walker2dEnv } from './environment.ts';

/** 10x the tuning episodes' worst step of the random policy (3.4e-13), rounded up to a power of ten. */
export const PER_STEP_TOLERANCE = 1e-11;
/** The recorded policy whose episodes are checked per step. */
export const PER_STEP_POLICY = 'uniform_random';

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
  // A false alarm in at most 1% of conforming files (measured: docs/mujoco.md, Conformance).
  falseAlarm: 0.01,
};

export const WALKER2D_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new Walker2dEnv(1, seed),
  physics: [
    { check: 'per-step', tolerance: PER_STEP_TOLERANCE, policy: PER_STEP_POLICY },
    { check: 'distribution', ...DISTRIBUTION },
  ],
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 2.7e-13.
  sameVersion: { physics: { check: 'per-step', tolerance: 1e-11 } },
};

export const walker2dConformance = mujocoConformance(WALKER2D_CONFORMANCE_SPEC);
