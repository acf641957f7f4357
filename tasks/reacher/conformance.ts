/**
 * Reacher-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/):
 * nothing collides, so the physics is checked per step. The fingertip's offset from the target
 * (observation 8 and 9) and the distance reward read the bodies' positions as MuJoCo left them at
 * the step's last sub-step; those are compared per step, simulated (sub-step.ts). Tolerances:
 * docs/mujoco.md says which recordings chose them (test/conformance-mujoco.test.ts).
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { ReacherEnv } from './environment.ts';

export const REACHER_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new ReacherEnv(1, seed),
  physics: { check: 'per-step', tolerance: 1e-6 },
  subStep: { obs: [8, 9], terms: { reward_dist: 1e-12 }, tolerance: { obs: 1e-6, reward: 1e-12 } },
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 0 per step (the rule's floor), 6.9e-17
  // in the distance reward, 2.2e-16 in the reward, the offset exact.
  sameVersion: {
    physics: { check: 'per-step', tolerance: 1e-14 },
    subStep: { obs: [8, 9], terms: { reward_dist: 1e-14 }, tolerance: { obs: 1e-6, reward: 1e-14 } },
  },
};

export const REACHER_CONFORMANCE = mujocoConformance(REACHER_CONFORMANCE_SPEC);
