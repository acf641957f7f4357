/**
 * Reacher-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/reacher_v5.py) with gym.make's
 * defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own reacher.xml.
 *
 * ## Description
 * A two-jointed arm lies flat on a table (the x-y plane, seen from above), its base fixed at the
 * origin. A target (a small red ball) is placed at random within 0.2 m of the base at every reset.
 * The goal is to move the arm's fingertip to the target, and keep it there, with little torque.
 *
 * ## The robot (reacher.xml)
 * Bodies (no gravity acts in the plane; nothing collides with the arm):
 * | body      | mass (kg) | geom | where |
 * |-----------|-----------|------|-------|
 * | body0     | 0.036     | capsule link0, radius 0.01, 0.1 m long | from the base at the origin |
 * | body1     | 0.036     | capsule link1, radius 0.01, 0.1 m long | from the end of link0 |
 * | fingertip | 0.004     | sphere, radius 0.01 | 0.11 m from link1's joint: the arm reaches 0.21 m at most |
 * | target    | 0.003     | sphere, radius 0.009 | moved by two slide joints |
 * An arena of four walls 0.3 m from the centre is drawn around them (they touch nothing).
 * Joints (qpos order):
 * | qpos | joint    | type | range |
 * |------|----------|------|-------|
 * | 0    | joint0   | hinge about z at the base: the first link's angle from +x (rad) | unlimited |
 * | 1    | joint1   | hinge about z between the links: the second link's angle to the first (rad) | -3 to 3 |
 * | 2    | target_x | slide along x: the target's x (m) | -0.27 to 0.27 |
 * | 3    | target_y | slide along y: the target's y (m) | -0.27 to 0.27 |
 * The arm's hinges have damping 1 and armature 1. The target does not move during an episode.
 * Actuators: two motors, one per arm hinge, a torque of gear 200 times the control, the control
 * clipped to [-1, 1].
 * Physics: RK4 integration, timestep 0.01 s, frame skip 2: one environment step is 0.02 s.
 *
 * ## Action space: Box(-1, 1, (2,)), float32
 * | Num | Action                            | Min | Max |
 * |-----|-----------------------------------|-----|-----|
 * | 0   | torque on joint0 (the base)        | -1  | 1   |
 * | 1   | torque on joint1 (between links)   | -1  | 1   |
 *
 * ## Observation space: Box(-inf, inf, (10,)), float64 (float32 here)
 * | Num | Observation                                           | unit  |
 * |-----|-------------------------------------------------------|-------|
 * | 0   | cosine of the first link's angle = cos(qpos[0])       |       |
 * | 1   | cosine of the second link's angle = cos(qpos[1])      |       |
 * | 2   | sine of the first link's angle = sin(qpos[0])         |       |
 * | 3   | sine of the second link's angle = sin(qpos[1])        |       |
 * | 4   | x of the target = qpos[2]                             | m     |
 * | 5   | y of the target = qpos[3]                             | m     |
 * | 6   | angular velocity of the first link = qvel[0]          | rad/s |
 * | 7   | angular velocity of the second link = qvel[1]         | rad/s |
 * | 8   | x of the fingertip minus x of the target              | m     |
 * | 9   | y of the fingertip minus y of the target              | m     |
 * Entries 8 and 9 are the body positions MuJoCo computed at the last of the step's MuJoCo steps.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_dist + reward_ctrl
 * - reward_dist: minus the distance from the fingertip to the target (observation 8 and 9's length).
 * - reward_ctrl: -sum(action²), computed in float32.
 * reward:end
 *
 * ## Starting state
 * The arm's angles uniform in [-0.1, 0.1], its angular velocities uniform in [-0.005, 0.005]; the
 * target uniform in the disc of radius 0.2 m around the base (drawn in the square [-0.2, 0.2]² until
 * it falls inside), still.
 *
 * ## Episode end
 * 1. Termination: never.
 * 2. Truncation: 50 steps (Gymnasium's TimeLimit, applied by the vector environment): one second.
 */
import type { Random } from '../../core/random.ts';
import { controlCost } from '../mujoco-common/control-cost.ts';
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import type { StepOutcome } from '../vector-env.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 50;
export const FRAME_SKIP = 2;
export const REWARD_DIST_WEIGHT = 1;
export const REWARD_CONTROL_WEIGHT = 1;
/** The target's distance from the base, at most (m). */
export const GOAL_RADIUS = 0.2;
const FINGERTIP = 3;
const TARGET = 4;

const ROBOT: RobotSpec = {
  xml: readTaskFile('reacher', 'reacher.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: 0.1,
  obsSize: 10,
  actionSize: 2,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  // Its observation reads no contact force: Gymnasium's mj_rnePostConstraint would change nothing.
  rnePostConstraint: false,
};

export class ReacherEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** Gymnasium's reset_model: the arm's noise, the target drawn until inside the disc, the arm's velocity noise. */
  protected override resetState(i: number, rng: Random): void {
    const { copies } = this;
    copies.resetData(i);
    const qpos = copies.initQpos.map((q) => rng.uniform(-0.1, 0.1) + q);
    let goal: [number, number];
    do goal = [rng.uniform(-GOAL_RADIUS, GOAL_RADIUS), rng.uniform(-GOAL_RADIUS, GOAL_RADIUS)];
    while (!(Math.hypot(goal[0], goal[1]) < GOAL_RADIUS));
    qpos.set(goal, 2);
    const qvel = new Float64Array(copies.nv).map(() => rng.uniform(-0.005, 0.005));
    qvel.fill(0, 2);
    copies.setState(i, qpos, qvel);
    this.info[i] = {};
  }

  /** Fingertip minus target (x, y, z), from the bodies' positions as MuJoCo last computed them (Gymnasium's get_body_com). */
  toTarget(i: number): [number, number, number] {
    const xpos = this.copies.data[i].xpos as Float64Array;
    return [0, 1, 2].map((k) => xpos[3 * FINGERTIP + k] - xpos[3 * TARGET + k]) as [number, number, number];
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    this.doSimulation(i, action);

    // reward:begin (left out of what the model reads)
    const [dx, dy, dz] = this.toTarget(i);
    const dist = -Math.sqrt(dx * dx + dy * dy + dz * dz) * REWARD_DIST_WEIGHT;
    const ctrl = -controlCost(REWARD_CONTROL_WEIGHT, action);
    this.info[i] = { reward_dist: dist, reward_ctrl: ctrl };
    // reward:end

    return { reward: dist + ctrl, terminated: false };
  }

  protected observeState(i: number, out: Float32Array): void {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    const [dx, dy] = this.toTarget(i);
    out.set([Math.cos(qpos[0]), Math.cos(qpos[1]), Math.sin(qpos[0]), Math.sin(qpos[1]), qpos[2], qpos[3], qvel[0], qvel[1], dx, dy]);
  }
}
