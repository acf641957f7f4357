/**
 * InvertedDoublePendulum-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2
 * (shared/golden/mujoco/): nothing collides, so the physics is checked per step. The reward and the
 * termination read the tip's site position and the observation the slider's constraint force as
 * MuJoCo left them at the step's last sub-step; those are compared per step, simulated (sub-step.ts),
 * and so is the velocity penalty: numpy's `v**2` is C's pow, which is not always the rounded square
 * (one unit in the last place on the golden episodes). Tolerances: docs/mujoco.md says which
 * recordings chose them (test/conformance-mujoco.test.ts).
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { InvertedDoublePendulumEnv } from './environment.ts';

export const INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new InvertedDoublePendulumEnv(1, seed),
  physics: { check: 'per-step', tolerance: 1e-13 },
  subStep: {
    obs: [8],
    terms: { reward_survive: 0, distance_penalty: 1e-13, velocity_penalty: 1e-14 },
    tolerance: { obs: 1e-6, reward: 1e-13 },
    endings: true,
  },
  // On MuJoCo 3.14.0, our engine's version: per step, the rule of test/conformance-mujoco-314.test.ts on the whole
  // tuning episodes (seeds 100-119) of bench/mujoco-native/record-gymnasium.py, whose worst was 8.9e-16 per step, 8.3e-17 in
  // the velocity penalty, 0 elsewhere (the rule's floor), the constraint force exact.
  sameVersion: {
    physics: { check: 'per-step', tolerance: 1e-14 },
    subStep: {
      obs: [8],
      terms: { reward_survive: 1e-14, distance_penalty: 1e-14, velocity_penalty: 1e-14 },
      tolerance: { obs: 1e-6, reward: 1e-14 },
      endings: true,
    },
  },
};

export const INVERTED_DOUBLE_PENDULUM_CONFORMANCE = mujocoConformance(INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC);
