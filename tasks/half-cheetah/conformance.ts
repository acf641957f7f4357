/**
 * HalfCheetah-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly, the physics per step: there are contacts, but MuJoCo 3.14 steps as the recordings'
 * 2.2.2 does to about 1e-8 (shared/golden/mujoco/README.md). The tolerance: 10x the tuning
 * episodes' worst (1.3e-8), rounded up to a power of ten.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { HalfCheetahEnv } from './environment.ts';

export const HALF_CHEETAH_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new HalfCheetahEnv(1, seed),
  physics: { check: 'per-step', tolerance: 1e-6 },
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 1.9e-12.
  sameVersion: { physics: { check: 'per-step', tolerance: 1e-10 } },
};

export const HALF_CHEETAH_CONFORMANCE = mujocoConformance(HALF_CHEETAH_CONFORMANCE_SPEC);
