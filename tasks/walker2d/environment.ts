/**
 * Walker2d-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/walker2d_v5.py) with gym.make's
 * defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own walker2d_v5.xml.
 *
 * ## Description
 * A two-dimensional two-legged robot: a torso on top and two legs below it, each a thigh, a leg
 * and a foot, joined by six hinges. It moves in the x-z plane only (x forward, z up). The goal is
 * to walk forward, in the +x direction, without falling.
 *
 * ## The robot (walker2d_v5.xml)
 * Bodies (capsules; mass from their volume at density 1000). The right leg and the left leg are
 * the same shape and start in the same place (seen from the side, one hides the other):
 * | body             | mass (kg) | geom: capsule radius, half-length | where |
 * |------------------|-----------|-----------------------------------|-------|
 * | torso            | 3.67      | 0.05, 0.20 (upright)              | its centre starts 1.25 m above the floor |
 * | thigh, thigh_left | 4.06 each | 0.05, 0.225                      | below the torso, from z 1.05 to 0.60 |
 * | leg, leg_left     | 2.78 each | 0.04, 0.25                       | below the thigh, from z 0.60 to 0.10 |
 * | foot, foot_left   | 3.17 each | 0.06, 0.10 (lying along x)       | at the bottom, from x 0 to 0.2, z 0.10; friction 1.9 (the others 0.9) |
 * Joints (qpos order):
 * | qpos | joint            | type                              | range |
 * |------|------------------|-----------------------------------|-------|
 * | 0    | rootx            | slide along x: the torso's x (m)  | unlimited |
 * | 1    | rootz            | slide along z: the torso's height (m), 1.25 at the start | unlimited |
 * | 2    | rooty            | hinge about y: the torso's angle (rad), 0 upright, positive leaning forward | unlimited |
 * | 3    | thigh_joint      | hinge between torso and right thigh (the hip, rad) | -150° to 0° (-2.618 to 0) |
 * | 4    | leg_joint        | hinge between right thigh and leg (the knee, rad) | -150° to 0° |
 * | 5    | foot_joint       | hinge between right leg and foot (the ankle, rad) | -45° to 45° (±0.785) |
 * | 6    | thigh_left_joint | the left hip (rad)                | -150° to 0° |
 * | 7    | leg_left_joint   | the left knee (rad)               | -150° to 0° |
 * | 8    | foot_left_joint  | the left ankle (rad)              | -45° to 45° |
 * The six leg hinges have damping 0.1 and armature 0.01. qvel has the same nine entries as velocities.
 * Actuators: six motors, one per leg hinge (right thigh, leg, foot, then left thigh, leg, foot), each
 * a torque of gear 100 times its control, the control clipped to [-1, 1] (so at most 100 N m).
 * The floor is a plane at z = 0; every body touches it (contacts with friction).
 * Physics: RK4 integration, timestep 0.002 s, frame skip 4: one environment step is 0.008 s.
 *
 * ## Action space: Box(-1, 1, (6,)), float32
 * | Num | Action                                 | Min | Max |
 * |-----|----------------------------------------|-----|-----|
 * | 0   | torque on the right thigh rotor (hip)   | -1  | 1   |
 * | 1   | torque on the right leg rotor (knee)    | -1  | 1   |
 * | 2   | torque on the right foot rotor (ankle)  | -1  | 1   |
 * | 3   | torque on the left thigh rotor (hip)    | -1  | 1   |
 * | 4   | torque on the left leg rotor (knee)     | -1  | 1   |
 * | 5   | torque on the left foot rotor (ankle)   | -1  | 1   |
 *
 * ## Observation space: Box(-inf, inf, (17,)), float64 (float32 here)
 * The torso's x position is left out (exclude_current_positions_from_observation).
 * | Num | Observation                                   | unit  |
 * |-----|-----------------------------------------------|-------|
 * | 0   | z of the torso (its height)       = qpos[1]   | m     |
 * | 1   | angle of the torso                = qpos[2]   | rad   |
 * | 2   | angle of the right thigh joint    = qpos[3]   | rad   |
 * | 3   | angle of the right leg joint      = qpos[4]   | rad   |
 * | 4   | angle of the right foot joint     = qpos[5]   | rad   |
 * | 5   | angle of the left thigh joint     = qpos[6]   | rad   |
 * | 6   | angle of the left leg joint       = qpos[7]   | rad   |
 * | 7   | angle of the left foot joint      = qpos[8]   | rad   |
 * | 8   | velocity of the torso along x     = qvel[0]   | m/s   |
 * | 9   | velocity of the torso along z     = qvel[1]   | m/s   |
 * | 10  | angular velocity of the torso     = qvel[2]   | rad/s |
 * | 11  | angular velocity of the right thigh hinge     | rad/s |
 * | 12  | angular velocity of the right leg hinge       | rad/s |
 * | 13  | angular velocity of the right foot hinge      | rad/s |
 * | 14  | angular velocity of the left thigh hinge      | rad/s |
 * | 15  | angular velocity of the left leg hinge        | rad/s |
 * | 16  | angular velocity of the left foot hinge       | rad/s |
 * The velocities (8-16) are clipped to [-10, 10].
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_survive + reward_forward + reward_ctrl
 * - reward_survive: 1 for every step the walker is healthy (see Episode end), else 0.
 * - reward_forward: (x after - x before) / dt, the torso's forward speed over the step (dt = 0.008).
 * - reward_ctrl: -0.001 * sum(action²), computed in float32.
 * reward:end
 *
 * ## Starting state
 * qpos = (0, 1.25, 0, 0, 0, 0, 0, 0, 0) and qvel = 0, each entry plus uniform noise in [-0.005, 0.005].
 *
 * ## Episode end
 * 1. Termination: the walker is unhealthy: the height z = qpos[1] leaves (0.8, 2.0), or the
 *    torso's angle qpos[2] leaves (-1, 1).
 * 2. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import { controlCost } from '../mujoco-common/control-cost.ts';
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import { recordRoot } from '../mujoco-common/recorded.ts';
import type { StepOutcome } from '../vector-env.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 1000;
export const FRAME_SKIP = 4;
export const RESET_NOISE_SCALE = 5e-3;
export const FORWARD_REWARD_WEIGHT = 1.0;
export const CTRL_COST_WEIGHT = 1e-3;
export const HEALTHY_REWARD = 1.0;
export const HEALTHY_Z_RANGE = [0.8, 2.0] as const;
export const HEALTHY_ANGLE_RANGE = [-1.0, 1.0] as const;
export const VELOCITY_CLIP = 10;
/** Gymnasium's init_qpos[1]: the torso's starting height (info's z_distance_from_origin is measured from it). */
const INIT_Z = 1.25;

const ROBOT: RobotSpec = {
  xml: readTaskFile('walker2d', 'walker2d_v5.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 17,
  actionSize: 6,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  recordSize: 3,
  // Its observation reads no contact force: Gymnasium's mj_rnePostConstraint would change nothing.
  rnePostConstraint: false,
};

const HEALTHY_RANGES = { z: HEALTHY_Z_RANGE, angle: HEALTHY_ANGLE_RANGE };

export class Walker2dEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** Gymnasium's healthy ranges, constructor arguments there: read through one method, so a variant (or a port broken on purpose: test/conformance-faults.test.ts) can change them. */
  protected healthyRanges(): Readonly<Record<keyof typeof HEALTHY_RANGES, readonly [number, number]>> {
    return HEALTHY_RANGES;
  }

  /** Gymnasium's is_healthy: z within (0.8, 2.0) and the torso's angle within (-1, 1). */
  isHealthy(i: number): boolean {
    const qpos = this.qpos(i);
    const [z, angle] = [qpos[1], qpos[2]];
    const ranges = this.healthyRanges();
    return ranges.z[0] < z && z < ranges.z[1] && ranges.angle[0] < angle && angle < ranges.angle[1];
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    const xBefore = this.qpos(i)[0];
    this.doSimulation(i, action);
    const qpos = this.qpos(i);
    const xAfter = qpos[0];
    const xVelocity = (xAfter - xBefore) / this.dt;
    const healthy = this.isHealthy(i);

    // reward:begin (left out of what the model reads)
    const forward = FORWARD_REWARD_WEIGHT * xVelocity;
    const survive = healthy ? HEALTHY_REWARD : 0;
    const ctrlCost = controlCost(CTRL_COST_WEIGHT, action);
    const reward = forward + survive - ctrlCost;
    this.info[i] = {
      x_position: xAfter, z_distance_from_origin: qpos[1] - INIT_Z, x_velocity: xVelocity,
      reward_forward: forward, reward_ctrl: -ctrlCost, reward_survive: survive,
    };
    // reward:end

    return { reward, terminated: !healthy };
  }

  /** The recorded state (task.ts `recorded`): the root joints, qpos[0..2]. */
  protected override recordState(i: number, out: Float64Array): void {
    recordRoot(this.qpos(i), out);
  }

  protected observeState(i: number, out: Float32Array): void {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    for (let k = 1; k < qpos.length; k++) out[k - 1] = qpos[k];
    for (let k = 0; k < qvel.length; k++) out[qpos.length - 1 + k] = Math.min(Math.max(qvel[k], -VELOCITY_CLIP), VELOCITY_CLIP);
  }
}
