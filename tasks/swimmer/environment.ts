/**
 * Swimmer-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/swimmer_v5.py) with gym.make's
 * defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own swimmer.xml.
 *
 * ## Description
 * A three-segment swimmer in a viscous fluid: three capsules in a chain, joined by two hinges,
 * lying flat on the water's surface. It moves in the horizontal x-y plane only (seen from above:
 * x forward, y to the side; it never rises or sinks). Bending its two joints in a travelling wave
 * pushes against the fluid; the goal is to swim forward, in the +x direction, as fast as it can.
 *
 * ## The robot (swimmer.xml)
 * Bodies (capsules of radius 0.1 and length 1, mass 35.6 kg each at density 1000); the fluid has
 * density 4000 and viscosity 0.1, which drag every capsule as it moves. Nothing collides.
 * | body  | where at the start |
 * |-------|--------------------|
 * | torso | the front segment, from x 1.5 to 0.5 (its nose at x 1.5) |
 * | mid   | the middle segment, from x 0.5 to -0.5, hinged to the torso at x 0.5 |
 * | back  | the tail segment, from x -0.5 to -1.5, hinged to the mid segment at x -0.5 |
 * Joints (qpos order):
 * | qpos | joint         | type                                                | range |
 * |------|---------------|-----------------------------------------------------|-------|
 * | 0    | slider1       | slide along x: the torso's x (m)                    | unlimited |
 * | 1    | slider2       | slide along y: the torso's y (m)                    | unlimited |
 * | 2    | free_body_rot | hinge about z: the torso's heading (rad), 0 facing +x, positive turning left (towards +y) | unlimited |
 * | 3    | motor1_rot    | hinge about z between torso and mid (rad)           | -100° to 100° (±1.745) |
 * | 4    | motor2_rot    | hinge about z between mid and back (rad)            | -100° to 100° |
 * Every joint has armature 0.1 and no damping. qvel has the same five entries as velocities.
 * Actuators: two motors, one per body hinge (motor1_rot, motor2_rot), each a torque of gear 150
 * times its control, the control clipped to [-1, 1] (so at most 150 N m).
 * Physics: RK4 integration, timestep 0.01 s, frame skip 4: one environment step is 0.04 s.
 *
 * ## Action space: Box(-1, 1, (2,)), float32
 * | Num | Action                                  | Min | Max |
 * |-----|-----------------------------------------|-----|-----|
 * | 0   | torque on the first hinge (torso-mid)   | -1  | 1   |
 * | 1   | torque on the second hinge (mid-back)   | -1  | 1   |
 *
 * ## Observation space: Box(-inf, inf, (8,)), float64 (float32 here)
 * The torso's x and y positions are left out (exclude_current_positions_from_observation).
 * | Num | Observation                                  | unit  |
 * |-----|----------------------------------------------|-------|
 * | 0   | heading of the torso              = qpos[2]  | rad   |
 * | 1   | angle of the first hinge          = qpos[3]  | rad   |
 * | 2   | angle of the second hinge         = qpos[4]  | rad   |
 * | 3   | velocity of the torso along x     = qvel[0]  | m/s   |
 * | 4   | velocity of the torso along y     = qvel[1]  | m/s   |
 * | 5   | angular velocity of the torso     = qvel[2]  | rad/s |
 * | 6   | angular velocity of the first hinge          | rad/s |
 * | 7   | angular velocity of the second hinge         | rad/s |
 * Nothing is clipped.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_forward + reward_ctrl
 * - reward_forward: (x after - x before) / dt, the torso's forward speed over the step (dt = 0.04).
 * - reward_ctrl: -0.0001 * sum(action²), computed in float32.
 * reward:end
 *
 * ## Starting state
 * qpos = 0 and qvel = 0, each entry plus uniform noise in [-0.1, 0.1].
 *
 * ## Episode end
 * 1. Termination: never.
 * 2. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import { controlCost } from '../mujoco-common/control-cost.ts';
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import { recordRoot } from '../mujoco-common/recorded.ts';
import { numpyNorm2 } from '../mujoco-common/numpy-norm.ts';
import type { StepOutcome } from '../vector-env.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 1000;
export const FRAME_SKIP = 4;
export const RESET_NOISE_SCALE = 0.1;
export const FORWARD_REWARD_WEIGHT = 1.0;
export const CTRL_COST_WEIGHT = 1e-4;

const ROBOT: RobotSpec = {
  xml: readTaskFile('swimmer', 'swimmer.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 8,
  actionSize: 2,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  recordSize: 3,
  // Its observation reads no contact force: Gymnasium's mj_rnePostConstraint would change nothing.
  rnePostConstraint: false,
};

export class SwimmerEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    const before = this.qpos(i);
    const [xBefore, yBefore] = [before[0], before[1]];
    this.doSimulation(i, action);
    const after = this.qpos(i);
    const [x, y] = [after[0], after[1]];
    const xVelocity = (x - xBefore) / this.dt;
    const yVelocity = (y - yBefore) / this.dt;

    // reward:begin (left out of what the model reads)
    const forward = FORWARD_REWARD_WEIGHT * xVelocity;
    const ctrlCost = controlCost(CTRL_COST_WEIGHT, action);
    const reward = forward - ctrlCost;
    this.info[i] = {
      x_position: x, y_position: y, distance_from_origin: numpyNorm2(x, y, this.dotRounding), x_velocity: xVelocity, y_velocity: yVelocity,
      reward_forward: forward, reward_ctrl: -ctrlCost,
    };
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
    for (let k = 2; k < qpos.length; k++) out[k - 2] = qpos[k];
    for (let k = 0; k < qvel.length; k++) out[qpos.length - 2 + k] = qvel[k];
  }
}
