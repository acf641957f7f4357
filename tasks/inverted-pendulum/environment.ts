/**
 * InvertedPendulum-v5, as Gymnasium 1.4.0 defines it (gymnasium/envs/mujoco/inverted_pendulum_v5.py)
 * with gym.make's defaults, simulated by MuJoCo (the official WebAssembly build) on Gymnasium's own
 * inverted_pendulum.xml. The MuJoCo version of CartPole, with a continuous force.
 *
 * ## Description
 * A cart slides along a rail (the x axis); a pole is hinged on top of it and starts upright. Pushing
 * the cart left or right keeps the pole balanced.
 *
 * ## The robot (inverted_pendulum.xml)
 * Bodies:
 * | body | mass (kg) | geom | where |
 * |------|-----------|------|-------|
 * | cart | 10.47     | capsule, radius 0.1, half-length 0.1, lying along x | on the rail (a capsule from x -1 to 1), at z 0 |
 * | pole | 5.02      | capsule, radius 0.049, from the cart's centre 0.6 m up (0.001 m along x) | hinged at the cart's centre |
 * Joints (qpos order):
 * | qpos | joint  | type | range |
 * |------|--------|------|-------|
 * | 0    | slider | slide along x: the cart's position (m) | -1 to 1 (a joint limit: the cart stops there) |
 * | 1    | hinge  | hinge about y: the pole's angle from upright (rad) | -90° to 90° (±1.571) |
 * Both joints have damping 1. Nothing collides (contype 0).
 * Actuator: one motor on the slider, a force of gear 100 times its control, the control clipped to
 * [-3, 3] (so at most 300 N).
 * Physics: RK4 integration, timestep 0.02 s, frame skip 2: one environment step is 0.04 s; gravity 9.81.
 *
 * ## Action space: Box(-3, 3, (1,)), float32
 * | Num | Action                         | Min | Max |
 * |-----|--------------------------------|-----|-----|
 * | 0   | force on the cart (control)     | -3  | 3   |
 *
 * ## Observation space: Box(-inf, inf, (4,)), float64 (float32 here)
 * | Num | Observation                                  | unit  |
 * |-----|----------------------------------------------|-------|
 * | 0   | position of the cart along the rail = qpos[0] | m     |
 * | 1   | angle of the pole from upright      = qpos[1] | rad   |
 * | 2   | velocity of the cart                = qvel[0] | m/s   |
 * | 3   | angular velocity of the pole        = qvel[1] | rad/s |
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards (Gymnasium's info names)
 * reward = reward_survive: 1 for every step that does not terminate, 0 on the step that does.
 * reward:end
 *
 * ## Starting state
 * qpos = (0, 0) and qvel = (0, 0), each entry plus uniform noise in [-0.01, 0.01].
 *
 * ## Episode end
 * 1. Termination: the pole's angle |qpos[1]| exceeds 0.2 rad, or an observation is not finite.
 * 2. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import { MujocoEnv, type RobotSpec } from '../mujoco-common/mujoco-env.ts';
import type { StepOutcome } from '../vector-env.ts';
import { readTaskFile } from '../task-files.ts';

export const MAX_EPISODE_STEPS = 1000;
export const FRAME_SKIP = 2;
export const RESET_NOISE_SCALE = 0.01;
export const MAX_ANGLE = 0.2;
export const MAX_FORCE = 3;

const HEALTHY_RANGES = { angle: [-MAX_ANGLE, MAX_ANGLE] as const };

const ROBOT: RobotSpec = {
  xml: readTaskFile('inverted-pendulum', 'inverted_pendulum.xml'),
  frameSkip: FRAME_SKIP,
  resetNoiseScale: RESET_NOISE_SCALE,
  obsSize: 4,
  actionSize: 1,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  // Its observation reads no contact force: Gymnasium's mj_rnePostConstraint would change nothing.
  rnePostConstraint: false,
};

export class InvertedPendulumEnv extends MujocoEnv {
  protected robot(): RobotSpec {
    return ROBOT;
  }

  /** The pole's angle beyond which the episode ends. Read through one method, so a variant (or a port broken on purpose: test/conformance-faults.test.ts) can change them. */
  protected healthyRanges(): { angle: readonly [number, number] } {
    return HEALTHY_RANGES;
  }

  protected stepState(i: number, action: Float64Array): StepOutcome {
    this.doSimulation(i, action);
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    const finite = [...qpos, ...qvel].every(Number.isFinite);
    const { angle } = this.healthyRanges();
    // Gymnasium's |angle| > 0.2, as a range.
    const terminated = !finite || qpos[1] < angle[0] || qpos[1] > angle[1];

    // reward:begin (left out of what the model reads)
    const reward = terminated ? 0 : 1;
    this.info[i] = { reward_survive: reward };
    // reward:end

    return { reward, terminated };
  }

  protected observeState(i: number, out: Float32Array): void {
    const qpos = this.qpos(i);
    const qvel = this.qvel(i);
    out[0] = qpos[0];
    out[1] = qpos[1];
    out[2] = qvel[0];
    out[3] = qvel[1];
  }
}
