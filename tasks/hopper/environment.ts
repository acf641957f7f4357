/**
 * Hopper-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/hopper_v5.py) with gym.make's
 * defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own hopper.xml.
 *
 * ## Description
 * A two-dimensional one-legged robot: a torso on top, a thigh, a leg and a foot, joined by three
 * hinges. It moves in the x-z plane only (x forward, z up). The goal is to hop forward, in the +x
 * direction, without falling.
 *
 * ## The robot (hopper.xml)
 * Bodies (capsules; mass from their volume at density 1000):
 * | body  | mass (kg) | geom: capsule radius, half-length | where |
 * |-------|-----------|-----------------------------------|-------|
 * | torso | 3.67      | 0.05, 0.20 (upright)              | its centre starts 1.25 m above the floor |
 * | thigh | 4.06      | 0.05, 0.225                       | below the torso, from z 1.05 to 0.60 |
 * | leg   | 2.78      | 0.04, 0.25                        | below the thigh, from z 0.60 to 0.10 |
 * | foot  | 5.32      | 0.06, 0.195 (lying along x)       | at the bottom, from x -0.13 to 0.26, z 0.10; friction 2.0 (the others 0.9) |
 * Joints (qpos order):
 * | qpos | joint       | type                              | range |
 * |------|-------------|-----------------------------------|-------|
 * | 0    | rootx       | slide along x: the torso's x (m)  | unlimited |
 * | 1    | rootz       | slide along z: the torso's height (m), 1.25 at the start | unlimited |
 * | 2    | rooty       | hinge about y: the torso's angle (rad), 0 upright, positive leaning forward | unlimited |
 * | 3    | thigh_joint | hinge between torso and thigh (rad) | -150° to 0° (-2.618 to 0) |
 * | 4    | leg_joint   | hinge between thigh and leg (the knee, rad) | -150° to 0° |
 * | 5    | foot_joint  | hinge between leg and foot (the ankle, rad) | -45° to 45° (±0.785) |
 * The three hinges have damping 1 and armature 1. qvel has the same six entries as velocities.
 * Actuators: three motors, one per hinge (thigh, leg, foot), each a torque of gear 200 times its
 * control, the control clipped to [-1, 1] (so at most 200 N m).
 * The floor is a plane at z = 0; the foot, leg and thigh touch it (contacts with friction).
 * Physics: RK4 integration, timestep 0.002 s, frame skip 4: one environment step is 0.008 s.
 *
 * ## Action space: Box(-1, 1, (3,)), float32
 * | Num | Action                          | Min | Max |
 * |-----|---------------------------------|-----|-----|
 * | 0   | torque on the thigh rotor (hip)  | -1  | 1   |
 * | 1   | torque on the leg rotor (knee)   | -1  | 1   |
 * | 2   | torque on the foot rotor (ankle) | -1  | 1   |
 *
 * ## Observation space: Box(-inf, inf, (11,)), float64 (float32 here)
 * The torso's x position is left out (exclude_current_positions_from_observation).
 * | Num | Observation                               | unit  |
 * |-----|-------------------------------------------|-------|
 * | 0   | z of the torso (its height)   = qpos[1]   | m     |
 * | 1   | angle of the torso            = qpos[2]   | rad   |
 * | 2   | angle of the thigh joint      = qpos[3]   | rad   |
 * | 3   | angle of the leg joint        = qpos[4]   | rad   |
 * | 4   | angle of the foot joint       = qpos[5]   | rad   |
 * | 5   | velocity of the torso along x = qvel[0]   | m/s   |
 * | 6   | velocity of the torso along z = qvel[1]   | m/s   |
 * | 7   | angular velocity of the torso = qvel[2]   | rad/s |
 * | 8   | angular velocity of the thigh hinge       | rad/s |
 * | 9   | angular velocity of the leg hinge         | rad/s |
 * | 10  | angular velocity of the foot hinge        | rad/s |
 * The velocities (5-10) are clipped to [-10, 10].
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_survive + reward_forward + reward_ctrl
 * - reward_survive: 1 for every step the hopper is healthy (see Episode end), else 0.
 * - reward_forward: (x after - x before) / dt, the torso's forward speed over the step (dt = 0.008).
 * - reward_ctrl: -0.001 * sum(action²), computed in float32.
 * reward:end
 *
 * ## Starting state
 * qpos = (0, 1.25, 0, 0, 0, 0) and qvel = 0, each entry plus uniform noise in [-0.005, 0.005].
 *
 * ## Episode end
 * 1. Termination: the hopper is unhealthy: any of qpos[2:] and qvel (observation entries 1-10,
 *    unclipped) leaves (-100, 100), or the height z = qpos[1] is 0.7 or less, or the torso's
 *    angle qpos[2] leaves (-0.2, 0.2).
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
export const HEALTHY_STATE_RANGE = [-100.0, 100.0] as const;
export const HEALTHY_Z_RANGE = [0.7, Infinity] as const;
export const HEALTHY_ANGLE_RANGE = [-0.2, 0.2] as const;
export const VELOCITY_CLIP = 10;

const ROBOT: RobotSpec = {
  xml: readTaskFile('hopper', 'hopper.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 11,
  actionSize: 3,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  recordSize: 3,
  // Its observation reads no contact force: Gymnasium's mj_rnePostConstraint would change nothing.
  rnePostConstraint: false,
};

const HEALTHY_RANGES = { state: HEALTHY_STATE_RANGE, z: HEALTHY_Z_RANGE, angle: HEALTHY_ANGLE_RANGE };

export class HopperEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** Gymnasium's healthy ranges, constructor arguments there: read through one method, so a variant (or a port broken on purpose: test/conformance-faults.test.ts) can change them. */
  protected healthyRanges(): Readonly<Record<keyof typeof HEALTHY_RANGES, readonly [number, number]>> {
    return HEALTHY_RANGES;
  }

  /** Gymnasium's is_healthy: state_vector()[2:] in range, z above 0.7, the torso's angle within ±0.2. */
  isHealthy(i: number): boolean {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    const ranges = this.healthyRanges();
    const [minState, maxState] = ranges.state;
    for (let k = 2; k < qpos.length; k++) if (!(minState < qpos[k] && qpos[k] < maxState)) return false;
    for (let k = 0; k < qvel.length; k++) if (!(minState < qvel[k] && qvel[k] < maxState)) return false;
    const z = qpos[1];
    const angle = qpos[2];
    return ranges.z[0] < z && z < ranges.z[1] && ranges.angle[0] < angle && angle < ranges.angle[1];
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    const xBefore = this.qpos(i)[0];
    this.doSimulation(i, action);
    const xAfter = this.qpos(i)[0];
    const xVelocity = (xAfter - xBefore) / this.dt;
    const healthy = this.isHealthy(i);

    // reward:begin (left out of what the model reads)
    const forward = FORWARD_REWARD_WEIGHT * xVelocity;
    const survive = healthy ? HEALTHY_REWARD : 0;
    const ctrlCost = controlCost(CTRL_COST_WEIGHT, action);
    const reward = forward + survive - ctrlCost;
    this.info[i] = { reward_forward: forward, reward_ctrl: -ctrlCost, reward_survive: survive };
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
