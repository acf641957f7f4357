/**
 * HalfCheetah-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/half_cheetah_v5.py) with
 * gym.make's defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own
 * half_cheetah.xml.
 *
 * ## Description
 * A two-dimensional cat-like robot: a horizontal torso with a head in front, a back leg and a
 * front leg, each a thigh, a shin and a foot, joined by six hinges. It moves in the x-z plane only
 * (x forward, z up). The goal is to run forward, in the +x direction, as fast as it can. It cannot
 * fall in a way that ends the episode: on its back it keeps going until the time limit.
 *
 * ## The robot (half_cheetah.xml)
 * Bodies (capsules of radius 0.046; total mass 14 kg):
 * | body   | mass (kg) | geom: capsule half-length | where |
 * |--------|-----------|---------------------------|-------|
 * | torso  | 6.25      | 0.50 (lying along x), and a head of 0.15 | its centre starts 0.7 m above the floor; the torso from x -0.5 to 0.5, the head at x 0.6, z 0.8, tilted up |
 * | bthigh | 1.54      | 0.145                     | hinged at the torso's back end (x -0.5), pointing down and back |
 * | bshin  | 1.59      | 0.15                      | below the back thigh |
 * | bfoot  | 1.10      | 0.094                     | the back leg's lowest part, its tip near the floor |
 * | fthigh | 1.44      | 0.133                     | hinged at the torso's front end (x 0.5), pointing down |
 * | fshin  | 1.20      | 0.106                     | below the front thigh |
 * | ffoot  | 0.89      | 0.07                      | the front leg's lowest part, its tip near the floor |
 * Joints (qpos order):
 * | qpos | joint  | type                                        | range (rad) | stiffness, damping |
 * |------|--------|---------------------------------------------|-------------|--------------------|
 * | 0    | rootx  | slide along x: the torso's x (m)            | unlimited   | - |
 * | 1    | rootz  | slide along z: the torso's height (m) relative to its start at 0.7 | unlimited | - |
 * | 2    | rooty  | hinge about y: the torso's angle (rad), 0 level, positive nose down | unlimited | - |
 * | 3    | bthigh | back thigh                                  | -0.52 to 1.05 | 240, 6 |
 * | 4    | bshin  | back shin                                   | -0.785 to 0.785 | 180, 4.5 |
 * | 5    | bfoot  | back foot                                   | -0.4 to 0.785 | 120, 3 |
 * | 6    | fthigh | front thigh                                 | -1 to 0.7   | 180, 4.5 |
 * | 7    | fshin  | front shin                                  | -1.2 to 0.87 | 120, 3 |
 * | 8    | ffoot  | front foot                                  | -0.5 to 0.5 | 60, 1.5 |
 * The leg hinges are springs (the stiffness pulls each back to 0) with armature 0.1. qvel has the
 * same nine entries as velocities.
 * Actuators: six motors, one per leg hinge (bthigh, bshin, bfoot, fthigh, fshin, ffoot) with gears
 * 120, 90, 60, 120, 60, 30 times the control, the control clipped to [-1, 1] (so at most 120 N m).
 * The floor is a plane at z = 0; every body touches it (contacts with friction 0.4).
 * Physics: Euler integration, timestep 0.01 s, frame skip 5: one environment step is 0.05 s.
 *
 * ## Action space: Box(-1, 1, (6,)), float32
 * | Num | Action                            | Min | Max |
 * |-----|-----------------------------------|-----|-----|
 * | 0   | torque on the back thigh rotor     | -1  | 1   |
 * | 1   | torque on the back shin rotor      | -1  | 1   |
 * | 2   | torque on the back foot rotor      | -1  | 1   |
 * | 3   | torque on the front thigh rotor    | -1  | 1   |
 * | 4   | torque on the front shin rotor     | -1  | 1   |
 * | 5   | torque on the front foot rotor     | -1  | 1   |
 *
 * ## Observation space: Box(-inf, inf, (17,)), float64 (float32 here)
 * The torso's x position is left out (exclude_current_positions_from_observation).
 * | Num | Observation                                    | unit  |
 * |-----|------------------------------------------------|-------|
 * | 0   | z of the torso, relative to its start = qpos[1] | m     |
 * | 1   | angle of the torso                  = qpos[2]   | rad   |
 * | 2   | angle of the back thigh             = qpos[3]   | rad   |
 * | 3   | angle of the back shin              = qpos[4]   | rad   |
 * | 4   | angle of the back foot              = qpos[5]   | rad   |
 * | 5   | angle of the front thigh            = qpos[6]   | rad   |
 * | 6   | angle of the front shin             = qpos[7]   | rad   |
 * | 7   | angle of the front foot             = qpos[8]   | rad   |
 * | 8   | velocity of the torso along x       = qvel[0]   | m/s   |
 * | 9   | velocity of the torso along z       = qvel[1]   | m/s   |
 * | 10  | angular velocity of the torso       = qvel[2]   | rad/s |
 * | 11  | angular velocity of the back thigh             | rad/s |
 * | 12  | angular velocity of the back shin              | rad/s |
 * | 13  | angular velocity of the back foot              | rad/s |
 * | 14  | angular velocity of the front thigh            | rad/s |
 * | 15  | angular velocity of the front shin             | rad/s |
 * | 16  | angular velocity of the front foot             | rad/s |
 * Nothing is clipped.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_forward + reward_ctrl
 * - reward_forward: (x after - x before) / dt, the torso's forward speed over the step (dt = 0.05).
 * - reward_ctrl: -0.1 * sum(action²), computed in float32.
 * reward:end
 *
 * ## Starting state
 * qpos = 0 plus uniform noise in [-0.1, 0.1] on every entry; qvel = 0.1 times standard normal noise
 * on every entry.
 *
 * ## Episode end
 * 1. Termination: never.
 * 2. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { controlCost } from '../mujoco-common/control-cost.ts';
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import { recordRoot } from '../mujoco-common/recorded.ts';
import type { StepOutcome } from '../vector-env.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 1000;
export const FRAME_SKIP = 5;
export const RESET_NOISE_SCALE = 0.1;
export const FORWARD_REWARD_WEIGHT = 1.0;
export const CTRL_COST_WEIGHT = 0.1;

const ROBOT: RobotSpec = {
  xml: readTaskFile('half-cheetah', 'half_cheetah.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 17,
  actionSize: 6,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  recordSize: 3,
  // Its observation reads no contact force: Gymnasium's mj_rnePostConstraint would change nothing.
  rnePostConstraint: false,
};

export class HalfCheetahEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** Gymnasium's reset_model here: uniform noise on qpos (first), Gaussian noise on qvel. */
  protected override resetState(i: number, rng: Random): void {
    const { copies } = this;
    const scale = this.robot().resetNoiseScale;
    copies.resetData(i);
    const qpos = this.startQpos().map((q) => q + rng.uniform(-scale, scale));
    const qvel = new Float64Array(copies.nv).map(() => scale * rng.normal());
    copies.setState(i, qpos, qvel);
    this.info[i] = {};
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    const xBefore = this.qpos(i)[0];
    this.doSimulation(i, action);
    const xAfter = this.qpos(i)[0];
    const xVelocity = (xAfter - xBefore) / this.dt;

    // reward:begin (left out of what the model reads)
    const forward = FORWARD_REWARD_WEIGHT * xVelocity;
    const ctrlCost = controlCost(CTRL_COST_WEIGHT, action);
    const reward = forward - ctrlCost;
    this.info[i] = { x_position: xAfter, x_velocity: xVelocity, reward_forward: forward, reward_ctrl: -ctrlCost };
    // reward:end

    return { reward, terminated: false };
  }

  /** The recorded state (task.ts `recorded`): the root joints, qpos[0..2]. */
  protected override recordState(i: number, out: Float64Array): void {
    recordRoot(this.qpos(i), out);
  }

  protected observeState(i: number, out: Float32Array): void {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    for (let k = 1; k < qpos.length; k++) out[k - 1] = qpos[k];
    for (let k = 0; k < qvel.length; k++) out[qpos.length - 1 + k] = qvel[k];
  }
}
