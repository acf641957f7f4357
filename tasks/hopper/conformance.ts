/**
 * Hopper-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly, the physics by distribution (the foot's contacts part MuJoCo 3.14 and 2.2.2
 * within a few steps); on recordings of the same code on native MuJoCo 3.14.0, our engine's own
 * version, the physics per step, contacts and all. docs/mujoco.md, Conformance, says which
 * recordings chose what.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { uniformRandom } from '../mujoco-common/distribution.ts';
import { HopperEnv } from './environment.ts';

export const HOPPER_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new HopperEnv(1, seed),
  // Contacts: MuJoCo 3.14 and the recordings' 2.2.2 part ways within a few steps (shared/golden/mujoco/README.md).
  physics: {
    check: 'distribution',
    policies: {
      uniform_random: uniformRandom([-1, -1, -1], [1, 1, 1]),
      // The recorder's posture controller: a = clip(-(5 (qpos[3:] - init_qpos[3:]) + 0.5 qvel[3:])); init_qpos[3:] is 0.
      pd_posture: (env) => [3, 4, 5].map((k) => Math.fround(Math.min(1, Math.max(-1, -(5 * env.qpos(0)[k] + 0.5 * env.qvel(0)[k]))))),
    },
    episodes: 40,
    // A false alarm in at most 1% of conforming files (measured: docs/mujoco.md, Conformance).
    falseAlarm: 0.01,
  },
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 8.9e-16.
  sameVersion: { physics: { check: 'per-step', tolerance: 1e-14 } },
};

export const HOPPER_CONFORMANCE = mujocoConformance(HOPPER_CONFORMANCE_SPEC);
