/**
 * InvertedPendulum-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly, the physics per step: no contacts, so MuJoCo 3.14 steps as the recordings' 2.2.2
 * does, to rounding.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { InvertedPendulumEnv } from './environment.ts';

export const INVERTED_PENDULUM_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new InvertedPendulumEnv(1, seed),
  physics: { check: 'per-step', tolerance: 1e-14 },
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 0 (the rule's floor).
  sameVersion: { physics: { check: 'per-step', tolerance: 1e-14 } },
};

export const INVERTED_PENDULUM_CONFORMANCE = mujocoConformance(INVERTED_PENDULUM_CONFORMANCE_SPEC);
