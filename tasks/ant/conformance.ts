/**
 * Ant-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly where it reads qpos and qvel, the physics by distribution (MuJoCo 3.x solves the
 * legs' contacts otherwise than 2.2.2: the golden README measured per-step differences of 3.9 in
 * qvel), and what the observation and reward read of the step's last sub-step (the contact forces,
 * the contact cost, the torso's body position) per step, simulated, within a stated tolerance.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { uniformRandom } from '../mujoco-common/distribution.ts';
import { AntEnv } from './environment.ts';

export const ANT_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new AntEnv(1, seed),
  physics: {
    check: 'distribution',
    policies: {
      uniform_random: uniformRandom(Array(8).fill(-1), Array(8).fill(1)),
      zero: () => [0, 0, 0, 0, 0, 0, 0, 0],
    },
    episodes: 40,
    // A false alarm in at most 1% of conforming files (measured: docs/mujoco.md, Conformance).
    falseAlarm: 0.01,
  },
  // Each tolerance: twice the worst of the tuning recordings (the golden seeds 0-5 and 100-139), rounded up
  // to one significant figure (test/conformance-mujoco.test.ts); the held-out seeds 140-179 are checked against them.
  subStep: {
    // The contact forces: a contact that comes or goes one sub-step apart moves a clipped entry by up to 2, so their mean deviation.
    obs: Array.from({ length: 78 }, (_, k) => 27 + k),
    obsMeasure: 'mean',
    terms: { reward_contact: 0.02, reward_forward: 2, x_velocity: 2, y_velocity: 2 },
    tolerance: { obs: 0.05, reward: 3 },
  },
};

export const ANT_CONFORMANCE = mujocoConformance(ANT_CONFORMANCE_SPEC);
