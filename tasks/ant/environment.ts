/**
 * Ant-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/ant_v5.py) with gym.make's
 * defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own ant.xml.
 *
 * ## Description
 * A three-dimensional four-legged robot: a round torso with four legs, each leg two links (an
 * upper leg on a hip hinge, a lower leg on an ankle hinge). The goal is to walk forward, in the +x
 * direction, without flipping over or jumping too high. Seen from above, the legs point diagonally:
 * front left (+x, +y), front right (-x, +y), back (-x, -y) and right back (+x, -y), so "forward"
 * (+x) runs between the front left and right back legs.
 *
 * ## The robot (ant.xml)
 * Bodies (capsules of radius 0.08 m; mass from their volume at density 5; 0.91 kg in all):
 * | body | mass (kg) | geom | where |
 * |------|-----------|------|-------|
 * | torso | 0.327 | sphere, radius 0.25 | its centre starts 0.75 m above the floor |
 * | each leg's hip link (4) | 0.039 | capsule from the torso's centre 0.28 m out along a diagonal | rigid to the torso |
 * | each leg's upper leg (4) | 0.039 | capsule 0.28 m on along the same diagonal | on the hip hinge |
 * | each leg's lower leg (4) | 0.068 | capsule 0.57 m on along the diagonal, its end the foot | on the ankle hinge |
 * Joints (qpos order): qpos has 15 entries, qvel 14.
 * | qpos | qvel | joint | type | range |
 * |------|------|-------|------|-------|
 * | 0-2  | 0-2  | root (x, y, z) | free joint: the torso's position (m); qvel: its linear velocity in the world frame (m/s) | unlimited |
 * | 3-6  | 3-5  | root (w, x, y, z) | the torso's orientation as a unit quaternion, (1, 0, 0, 0) level; qvel: its angular velocity (rad/s, in the torso's frame) | unlimited |
 * | 7    | 6    | hip_1 (front left) | hinge about z, the leg's swing (rad) | -30° to 30° (±0.524) |
 * | 8    | 7    | ankle_1 (front left) | hinge: the lower leg's lift (rad) | 30° to 70° (0.524 to 1.222) |
 * | 9    | 8    | hip_2 (front right) | hinge about z | -30° to 30° |
 * | 10   | 9    | ankle_2 (front right) | hinge | -70° to -30° |
 * | 11   | 10   | hip_3 (back) | hinge about z | -30° to 30° |
 * | 12   | 11   | ankle_3 (back) | hinge | -70° to -30° |
 * | 13   | 12   | hip_4 (right back) | hinge about z | -30° to 30° |
 * | 14   | 13   | ankle_4 (right back) | hinge | 30° to 70° |
 * The eight hinges have damping 1 and armature 1; at qpos 0 the ankles start outside their range
 * (the joint limits push them in as the ant lands).
 * Actuators: eight motors, a torque of gear 150 times the control, the control clipped to [-1, 1].
 * The floor is a plane at z = 0; every geom touches it (friction 1).
 * Physics: RK4 integration, timestep 0.01 s, frame skip 5: one environment step is 0.05 s.
 *
 * ## Action space: Box(-1, 1, (8,), float32)
 * | Num | Action: torque on the hinge     | Num | Action                          |
 * |-----|---------------------------------|-----|---------------------------------|
 * | 0   | hip_4 (right back hip)          | 4   | hip_2 (front right hip)         |
 * | 1   | ankle_4 (right back ankle)      | 5   | ankle_2 (front right ankle)     |
 * | 2   | hip_1 (front left hip)          | 6   | hip_3 (back hip)                |
 * | 3   | ankle_1 (front left ankle)      | 7   | ankle_3 (back ankle)            |
 *
 * ## Observation space: Box(-inf, inf, (105,), float64) (float32 here)
 * The torso's x and y are left out (exclude_current_positions_from_observation).
 * | Num    | Observation                                                        | unit  |
 * |--------|--------------------------------------------------------------------|-------|
 * | 0      | z of the torso (its height) = qpos[2]                              | m     |
 * | 1-4    | orientation of the torso, quaternion w, x, y, z = qpos[3:7]        |       |
 * | 5-12   | the hinge angles, in qpos order (hip_1, ankle_1, ..., ankle_4) = qpos[7:15] | rad |
 * | 13-15  | velocity of the torso along x, y, z = qvel[0:3]                    | m/s   |
 * | 16-18  | angular velocity of the torso = qvel[3:6]                          | rad/s |
 * | 19-26  | angular velocities of the hinges = qvel[6:14]                      | rad/s |
 * | 27-104 | contact forces on the 13 bodies (MuJoCo's cfrc_ext, body 1 torso to body 13), 6 each (torque x, y, z, force x, y, z), each clipped to [-1, 1] | N m, N |
 * The contact forces are those of the last of the step's MuJoCo steps (mj_rnePostConstraint); 0 right after a reset.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_forward + reward_survive + reward_ctrl + reward_contact
 * - reward_forward: the torso's x velocity over the step, (x after - x before) / dt, from its body position.
 * - reward_survive: 1 for every step the ant is healthy (see Episode end), else 0.
 * - reward_ctrl: -0.5 * sum(action²), computed in float32.
 * - reward_contact: -5e-4 * sum(contact force²), over the clipped contact forces of every body.
 * reward:end
 *
 * ## Starting state
 * qpos = (0, 0, 0.75, 1, 0, 0, 0, 0, ..., 0) plus uniform noise in [-0.1, 0.1] on each entry (the
 * quaternion too, unnormalized: MuJoCo normalizes it), qvel = 0 plus normal noise of standard
 * deviation 0.1 on each entry.
 *
 * ## Episode end
 * 1. Termination: the ant is unhealthy: qpos or qvel has a non-finite entry, or the torso's height
 *    z = qpos[2] leaves [0.2, 1.0] (it fell through, or jumped or flipped up).
 * 2. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { controlCost } from '../mujoco-common/control-cost.ts';
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import { recordFreeBody } from '../mujoco-common/recorded.ts';
import { numpyNorm2 } from '../mujoco-common/numpy-norm.ts';
import type { StepOutcome } from '../vector-env.ts';
import type { EnvSnapshot } from '../contract.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 1000;
export const FRAME_SKIP = 5;
export const RESET_NOISE_SCALE = 0.1;
export const FORWARD_REWARD_WEIGHT = 1;
export const CTRL_COST_WEIGHT = 0.5;
export const CONTACT_COST_WEIGHT = 5e-4;
export const HEALTHY_REWARD = 1;
export const HEALTHY_Z_RANGE = [0.2, 1.0] as const;
export const CONTACT_FORCE_RANGE = [-1, 1] as const;
/** Gymnasium's main_body: the torso, body 1. */
const MAIN_BODY = 1;
const NBODY = 14;

const ROBOT: RobotSpec = {
  xml: readTaskFile('ant', 'ant.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 105,
  actionSize: 8,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  recordSize: 4,
  // Its observation reads the contact forces (cfrc_ext), which mj_rnePostConstraint computes.
  rnePostConstraint: true,
};

const HEALTHY_RANGES = { z: HEALTHY_Z_RANGE };

const clipForce = (f: number): number => Math.min(Math.max(f, CONTACT_FORCE_RANGE[0]), CONTACT_FORCE_RANGE[1]);

export class AntEnv extends MujocoEnv {
  /**
   * Each copy's torso (x, y) where the last step (or reset) left MuJoCo's body position: the next
   * step's "before". Kept here and in the snapshot, since a restored MuJoCo state has no body positions.
   */
  declare private torso: Float64Array;

  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** Gymnasium's healthy ranges, constructor arguments there: read through one method, so a variant (or a port broken on purpose: test/conformance-faults.test.ts) can change them. */
  protected healthyRanges(): { z: readonly [number, number] } {
    return HEALTHY_RANGES;
  }

  /** Gymnasium's reset_model: uniform noise on qpos, then normal noise on qvel (not uniform, as Hopper's). */
  protected override resetState(i: number, rng: Random): void {
    const { copies } = this;
    const scale = this.robot().resetNoiseScale;
    copies.resetData(i);
    const qpos = this.startQpos().map((q) => q + rng.uniform(-scale, scale));
    const qvel = new Float64Array(copies.nv).map(() => scale * rng.normal());
    copies.setState(i, qpos, qvel);
    this.info[i] = {};
    this.keepTorso(i);
  }

  override setRecordedState(i: number, qpos: ArrayLike<number>, qvel: ArrayLike<number>, warmstart?: ArrayLike<number>): void {
    super.setRecordedState(i, qpos, qvel, warmstart);
    this.keepTorso(i);
  }

  /** The torso's position stays the one our last step's last sub-step left, where setRecordedState takes it from qpos. */
  override continueFromRecordedState(i: number, qpos: ArrayLike<number>, qvel: ArrayLike<number>, warmstart?: ArrayLike<number>): void {
    const kept = this.torso.slice(2 * i, 2 * i + 2);
    this.setRecordedState(i, qpos, qvel, warmstart);
    this.torso.set(kept, 2 * i);
  }

  /** Gymnasium's is_healthy: qpos and qvel finite, the torso's height within [0.2, 1.0]. */
  isHealthy(i: number): boolean {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    if (!qpos.every(Number.isFinite) || !qvel.every(Number.isFinite)) return false;
    const { z } = this.healthyRanges();
    return z[0] <= qpos[2] && qpos[2] <= z[1];
  }

  /** Keeps the torso's body position (x, y) as MuJoCo last computed it: after a step, at its last sub-step. */
  private keepTorso(i: number): void {
    const xpos = this.copies.data[i].xpos as Float64Array;
    this.torso ??= new Float64Array(2 * this.n);
    this.torso[2 * i] = xpos[3 * MAIN_BODY];
    this.torso[2 * i + 1] = xpos[3 * MAIN_BODY + 1];
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    const [xBefore, yBefore] = [this.torso[2 * i], this.torso[2 * i + 1]];
    this.doSimulation(i, action);
    this.keepTorso(i);
    const [xAfter, yAfter] = [this.torso[2 * i], this.torso[2 * i + 1]];
    const xVelocity = (xAfter - xBefore) / this.dt;
    const yVelocity = (yAfter - yBefore) / this.dt;
    const healthy = this.isHealthy(i);
    const qpos = this.qpos(i);

    // reward:begin (left out of what the model reads)
    const forward = FORWARD_REWARD_WEIGHT * xVelocity;
    const survive = healthy ? HEALTHY_REWARD : 0;
    const ctrlCost = controlCost(CTRL_COST_WEIGHT, action);
    const cfrc = this.copies.data[i].cfrc_ext as Float64Array;
    let forces = 0;
    for (let k = 0; k < 6 * NBODY; k++) forces += clipForce(cfrc[k]) ** 2;
    const contactCost = CONTACT_COST_WEIGHT * forces;
    const reward = forward + survive - (ctrlCost + contactCost);
    this.info[i] = {
      x_position: qpos[0], y_position: qpos[1], distance_from_origin: numpyNorm2(qpos[0], qpos[1], this.dotRounding),
      x_velocity: xVelocity, y_velocity: yVelocity,
      reward_forward: forward, reward_ctrl: -ctrlCost, reward_contact: -contactCost, reward_survive: survive,
    };
    // reward:end

    return { reward, terminated: !healthy };
  }

  override snapshot(): EnvSnapshot {
    return { ...super.snapshot(), torso: Float64Array.from(this.torso) };
  }

  override restore(snapshot: EnvSnapshot): void {
    const { torso } = snapshot;
    if (!(torso instanceof Float64Array) || torso.length !== 2 * this.n) throw new Error(`a snapshot of another environment (${this.n} Ant copies expected)`);
    super.restore(snapshot);
    this.torso.set(torso);
  }

  /** The recorded state (task.ts `recorded`): the torso's x, y, z and its heading, unwrapped. */
  protected override recordState(i: number, out: Float64Array, previous: Float64Array | null): void {
    recordFreeBody(this.qpos(i), out, previous);
  }

  protected observeState(i: number, out: Float32Array): void {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    const cfrc = this.copies.data[i].cfrc_ext as Float64Array;
    for (let k = 2; k < qpos.length; k++) out[k - 2] = qpos[k];
    for (let k = 0; k < qvel.length; k++) out[qpos.length - 2 + k] = qvel[k];
    const at = qpos.length - 2 + qvel.length;
    for (let k = 6; k < 6 * NBODY; k++) out[at + k - 6] = clipForce(cfrc[k]);
  }
}
