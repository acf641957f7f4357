/**
 * Swimmer-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly, the physics per step: nothing collides, so MuJoCo 3.14 steps as the recordings'
 * 2.2.2 does, to rounding. The tolerance: 10x the tuning episodes' worst (8.4e-15), rounded up to a
 * power of ten.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { SwimmerEnv } from './environment.ts';

export const SWIMMER_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new SwimmerEnv(1, seed),
  physics: { check: 'per-step', tolerance: 1e-13 },
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 4.7e-15.
  sameVersion: { physics: { check: 'per-step', tolerance: 1e-13 } },
};

export const SWIMMER_CONFORMANCE = mujocoConformance(SWIMMER_CONFORMANCE_SPEC);
