/**
 * Ant-v5 against Gymnasium's own v5 file on native MuJoCo 2.2.2 (shared/golden/mujoco/): the
 * logic exactly where it reads qpos and qvel; the physics by distribution (MuJoCo 3.x solves the
 * legs' contacts otherwise than 2.2.2: the golden README measured per-step differences of 3.9 in
 * qvel) and per step on average; and what the observation and reward read of the step's last
 * sub-step (the contact forces, the contact cost, the torso's body position) per step, simulated.
 *
 * Where contacts part the versions, a contact one sub-step apart moves a step's forward speed by
 * up to 0.7 and its qvel by up to 4, on a few steps; a broken port moves them on every step (its
 * forward term's sign, `dt`, its frame skip: test/conformance-faults.test.ts). So those are judged
 * by their mean deviation over a file's steps, which a few such steps cannot move much: a largest
 * deviation let all three through (the forward reward's tolerance was 2).
 *
 * On recordings made on native MuJoCo 3.14.0 (`sameVersion`) none of that is needed: every step,
 * its contact forces and contact cost included, agrees to rounding.
 */
import { mujocoConformance, type MujocoConformanceSpec } from '../mujoco-common/conformance.ts';
import { uniformRandom } from '../mujoco-common/distribution.ts';
import { AntEnv } from './environment.ts';

export const ANT_CONFORMANCE_SPEC: MujocoConformanceSpec = {
  make: (seed) => new AntEnv(1, seed),
  // Each tolerance: twice the worst of the tuning recordings (the golden seeds 0-5 and 100-139, one
  // file's mean), rounded up to one significant figure (test/conformance-sub-step.test.ts); the
  // held-out seeds 140-179 and the seeds 600-639 are checked against them.
  physics: [
    {
      check: 'distribution',
      policies: {
        uniform_random: uniformRandom(Array(8).fill(-1), Array(8).fill(1)),
        zero: () => [0, 0, 0, 0, 0, 0, 0, 0],
      },
      episodes: 40,
      // A false alarm in at most 1% of conforming files (measured: docs/mujoco.md, Conformance).
      falseAlarm: 0.01,
    },
    // The tuning recordings' mean 0.186.
    { check: 'per-step', measure: 'mean', tolerance: 0.4 },
  ],
  subStep: {
    // The contact forces: a contact that comes or goes one sub-step apart moves a clipped entry by up to 2.
    obs: Array.from({ length: 78 }, (_, k) => 27 + k),
    obsMeasure: 'mean',
    termsMeasure: 'mean',
    terms: { reward_contact: 0.002, reward_forward: 0.04, x_velocity: 0.04, y_velocity: 0.04 },
    tolerance: { obs: 0.05, reward: 0.04 },
  },
  // On MuJoCo 3.14.0, our engine's version, the two builds agree to rounding on every step, contacts
  // included, so every step is held to its largest deviation: the rule of
  // test/conformance-mujoco-314.test.ts on the whole tuning episodes (seeds 100-119) of
  // bench/mujoco-native/record-gymnasium.py, whose worst were 1.7e-14 per step, 7.3e-12 in a contact
  // force (float32: the floor 1e-6), 4.1e-15 in the contact cost, 8.9e-15 in the forward reward, the
  // speeds and the reward. The torso's "before" goes on from our previous step (`continues`).
  sameVersion: {
    physics: { check: 'per-step', tolerance: 1e-12 },
    subStep: {
      obs: Array.from({ length: 78 }, (_, k) => 27 + k),
      terms: { reward_contact: 1e-13, reward_forward: 1e-13, x_velocity: 1e-13, y_velocity: 1e-13 },
      tolerance: { obs: 1e-6, reward: 1e-13 },
      continues: true,
    },
  },
};

export const ANT_CONFORMANCE = mujocoConformance(ANT_CONFORMANCE_SPEC);
