/**
 * InvertedDoublePendulum-v5, as Gymnasium 1.4.0 defines it
 * (gymnasium/envs/mujoco/inverted_double_pendulum_v5.py) with gym.make's defaults, simulated by
 * MuJoCo (the official WebAssembly build) on Gymnasium's own inverted_double_pendulum.xml.
 *
 * ## Description
 * A cart slides along a rail (the x axis); a pole is hinged on top of it, and a second pole is
 * hinged on the top of the first. Both start upright. Pushing the cart left or right must keep the
 * tip of the second pole up.
 *
 * ## The robot (inverted_double_pendulum.xml)
 * Bodies:
 * | body  | mass (kg) | geom | where |
 * |-------|-----------|------|-------|
 * | cart  | 10.47     | capsule, radius 0.1, half-length 0.1, lying along x | on the rail (a capsule from x -1 to 1), at z 0 |
 * | pole  | 4.20      | capsule, radius 0.045, 0.6 m long | hinged at the cart's centre, upright from z 0 to 0.6 |
 * | pole2 | 4.20      | capsule, radius 0.045, 0.6 m long | hinged at the first pole's top, from z 0.6 to 1.2; its tip (a site) at 1.2 m |
 * Joints (qpos order):
 * | qpos | joint   | type | range |
 * |------|---------|------|-------|
 * | 0    | slider  | slide along x: the cart's position (m) | -1 to 1 (a joint limit: the cart stops there) |
 * | 1    | hinge   | hinge about y: the first pole's angle from upright (rad) | unlimited |
 * | 2    | hinge2  | hinge about y: the second pole's angle relative to the first (rad) | unlimited |
 * The joints have damping 0.05. Nothing collides (contype 0). Gravity 9.81 down (and 1e-5 along x).
 * Actuator: one motor on the slider, a force of gear 500 times its control, the control clipped to
 * [-1, 1] (so at most 500 N).
 * Physics: RK4 integration, timestep 0.01 s, frame skip 5: one environment step is 0.05 s.
 *
 * ## Action space: Box(-1, 1, (1,)), float32
 * | Num | Action                      | Min | Max |
 * |-----|-----------------------------|-----|-----|
 * | 0   | force on the cart (control)  | -1  | 1   |
 *
 * ## Observation space: Box(-inf, inf, (9,)), float64 (float32 here)
 * | Num | Observation                                                  | unit  |
 * |-----|--------------------------------------------------------------|-------|
 * | 0   | position of the cart along the rail = qpos[0]                | m     |
 * | 1   | sine of the first pole's angle = sin(qpos[1])                |       |
 * | 2   | sine of the second pole's angle to the first = sin(qpos[2])  |       |
 * | 3   | cosine of the first pole's angle = cos(qpos[1])              |       |
 * | 4   | cosine of the second pole's angle to the first = cos(qpos[2]) |      |
 * | 5   | velocity of the cart = qvel[0], clipped to [-10, 10]         | m/s   |
 * | 6   | angular velocity of the first pole = qvel[1], clipped to [-10, 10] | rad/s |
 * | 7   | angular velocity of the second pole = qvel[2], clipped to [-10, 10] | rad/s |
 * | 8   | constraint force on the cart (the rail's end stop), clipped to [-10, 10] | N |
 * The constraint force is MuJoCo's qfrc_constraint of the slider at the last of the step's MuJoCo steps: 0 unless the cart is at a rail's end.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_survive + distance_penalty + velocity_penalty
 * - reward_survive: 10 for every step that does not terminate, 0 on the step that does.
 * - distance_penalty: -(0.01 x² + (y - 2)²), x and y the x and height of the second pole's tip.
 * - velocity_penalty: -(1e-3 qvel[1]² + 5e-3 qvel[2]²).
 * reward:end
 *
 * ## Starting state
 * qpos = (0, 0, 0) plus uniform noise in [-0.1, 0.1] on each entry, qvel = 0 plus normal noise of
 * standard deviation 0.1 on each entry.
 *
 * ## Episode end
 * 1. Termination: the tip of the second pole is at a height of 1 m or less (upright it is at 1.2 m).
 * 2. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 * The tip's position is the one MuJoCo computed at the last of the step's MuJoCo steps.
 */
import type { Random } from '../../core/random.ts';
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import type { StepOutcome } from '../vector-env.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 1000;
export const FRAME_SKIP = 5;
export const RESET_NOISE_SCALE = 0.1;
export const HEALTHY_REWARD = 10;
/** The tip's height at or below which the episode ends (m). */
export const MIN_TIP_HEIGHT = 1;
export const CLIP = 10;

const ROBOT: RobotSpec = {
  xml: readTaskFile('inverted-double-pendulum', 'inverted_double_pendulum.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 9,
  actionSize: 1,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  // Its observation reads no contact force (qfrc_constraint comes from mj_step itself).
  rnePostConstraint: false,
};

const HEALTHY_RANGES = { tipHeight: [MIN_TIP_HEIGHT, Infinity] as const };

const clip = (v: number): number => Math.min(Math.max(v, -CLIP), CLIP);

export class InvertedDoublePendulumEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** The tip's heights that keep the episode going. Read through one method, so a variant (or a port broken on purpose: test/conformance-faults.test.ts) can change them. */
  protected healthyRanges(): { tipHeight: readonly [number, number] } {
    return HEALTHY_RANGES;
  }

  /** Gymnasium's reset_model: uniform noise on qpos, then normal noise on qvel. */
  protected override resetState(i: number, rng: Random): void {
    const { copies } = this;
    const scale = this.robot().resetNoiseScale;
    copies.resetData(i);
    const qpos = this.startQpos().map((q) => q + rng.uniform(-scale, scale));
    const qvel = new Float64Array(copies.nv).map(() => rng.normal() * scale);
    copies.setState(i, qpos, qvel);
    this.info[i] = {};
  }

  /** The tip of the second pole (x, height), as MuJoCo last placed it: after a step, at its last sub-step. */
  tip(i: number): [number, number] {
    const site = this.copies.data[i].site_xpos as Float64Array;
    return [site[0], site[2]];
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    this.doSimulation(i, action);
    const [x, y] = this.tip(i);
    // Gymnasium's y <= 1 ends it.
    const terminated = y <= this.healthyRanges().tipHeight[0];
    const qvel = this.qvel(i);

    // reward:begin (left out of what the model reads)
    const distance = 0.01 * (x * x) + (y - 2) * (y - 2);
    const velocity = 1e-3 * (qvel[1] * qvel[1]) + 5e-3 * (qvel[2] * qvel[2]);
    const survive = terminated ? 0 : HEALTHY_REWARD;
    const reward = survive - distance - velocity;
    this.info[i] = { reward_survive: survive, distance_penalty: -distance, velocity_penalty: -velocity };
    // reward:end

    return { reward, terminated };
  }

  protected observeState(i: number, out: Float32Array): void {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    out[0] = qpos[0];
    out[1] = Math.sin(qpos[1]);
    out[2] = Math.sin(qpos[2]);
    out[3] = Math.cos(qpos[1]);
    out[4] = Math.cos(qpos[2]);
    for (let k = 0; k < 3; k++) out[5 + k] = clip(qvel[k]);
    out[8] = clip((this.copies.data[i].qfrc_constraint as Float64Array)[0]);
  }
}
