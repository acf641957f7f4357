/**
 * The MuJoCo ports broken on purpose (issue 42, item 2), each a subclass of the task's environment
 * that overrides one thing: the forward term's sign, `dt` doubled, a healthy range off by 10%,
 * two observation entries swapped, the frame skip one more. test/conformance-faults.test.ts shows
 * `eureka conformance`'s checks failing on each.
 */
import type { MujocoEnv, RobotSpec } from '../../tasks/mujoco-common/mujoco-env.ts';
import type { StepOutcome } from '../../tasks/vector-env.ts';
import { AntEnv } from '../../tasks/ant/environment.ts';
import { HalfCheetahEnv } from '../../tasks/half-cheetah/environment.ts';
import { HopperEnv } from '../../tasks/hopper/environment.ts';
import { InvertedDoublePendulumEnv } from '../../tasks/inverted-double-pendulum/environment.ts';
import { InvertedPendulumEnv } from '../../tasks/inverted-pendulum/environment.ts';
import { ReacherEnv } from '../../tasks/reacher/environment.ts';
import { SwimmerEnv } from '../../tasks/swimmer/environment.ts';
import { Walker2dEnv } from '../../tasks/walker2d/environment.ts';

export type Fault = 'forward sign' | 'dt doubled' | 'healthy range +10%' | 'observation swapped' | 'frame skip +1';
export type Make = (seed: number) => MujocoEnv;

// What each override does, shared by the subclasses below.
type Info = Record<string, number>;
/** reward_forward negated, and the reward with it: `out` first, since the step writes a new info. */
const flipForward = (out: StepOutcome, info: Info): StepOutcome => {
  const forward = info.reward_forward;
  info.reward_forward = -forward;
  return { ...out, reward: out.reward - 2 * forward };
};
/** Observation entries 0 and 1 trade places. */
const swap01 = (out: Float32Array): void => {
  [out[0], out[1]] = [out[1], out[0]];
};
const oneMoreSkip = (robot: RobotSpec): RobotSpec => ({ ...robot, frameSkip: robot.frameSkip + 1 });
/** The range's finite bounds moved 10% outward (the episode ends later). */
const widen = (range: readonly [number, number]): readonly [number, number] => [range[0] - 0.1 * Math.abs(range[0]), Number.isFinite(range[1]) ? range[1] * 1.1 : range[1]];
/** The lower bound 10% up (the episode ends sooner). */
const raiseFloor = (range: readonly [number, number]): readonly [number, number] => [range[0] * 1.1, range[1]];
/** The upper bound 10% down (the episode ends sooner). */
const lowerCeiling = (range: readonly [number, number]): readonly [number, number] => [range[0], range[1] * 0.9];

class HopperForward extends HopperEnv { protected override stepState(i: number, a: Float64Array): StepOutcome { const out = super.stepState(i, a); return flipForward(out, this.info[i]); } }
class HopperDt extends HopperEnv { override get dt(): number { return 2 * super.dt; } }
class HopperHealthy extends HopperEnv { protected override healthyRanges() { const r = super.healthyRanges(); return { ...r, angle: widen(r.angle) }; } }
class HopperObs extends HopperEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class HopperSkip extends HopperEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class Walker2dForward extends Walker2dEnv { protected override stepState(i: number, a: Float64Array): StepOutcome { const out = super.stepState(i, a); return flipForward(out, this.info[i]); } }
class Walker2dDt extends Walker2dEnv { override get dt(): number { return 2 * super.dt; } }
class Walker2dHealthy extends Walker2dEnv { protected override healthyRanges() { const r = super.healthyRanges(); return { ...r, angle: widen(r.angle) }; } }
class Walker2dObs extends Walker2dEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class Walker2dSkip extends Walker2dEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class HalfCheetahForward extends HalfCheetahEnv { protected override stepState(i: number, a: Float64Array): StepOutcome { const out = super.stepState(i, a); return flipForward(out, this.info[i]); } }
class HalfCheetahDt extends HalfCheetahEnv { override get dt(): number { return 2 * super.dt; } }
class HalfCheetahObs extends HalfCheetahEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class HalfCheetahSkip extends HalfCheetahEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class SwimmerForward extends SwimmerEnv { protected override stepState(i: number, a: Float64Array): StepOutcome { const out = super.stepState(i, a); return flipForward(out, this.info[i]); } }
class SwimmerDt extends SwimmerEnv { override get dt(): number { return 2 * super.dt; } }
class SwimmerObs extends SwimmerEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class SwimmerSkip extends SwimmerEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class AntForward extends AntEnv { protected override stepState(i: number, a: Float64Array): StepOutcome { const out = super.stepState(i, a); return flipForward(out, this.info[i]); } }
class AntDt extends AntEnv { override get dt(): number { return 2 * super.dt; } }
class AntHealthy extends AntEnv { protected override healthyRanges() { return { z: lowerCeiling(super.healthyRanges().z) }; } }
class AntObs extends AntEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class AntSkip extends AntEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class InvertedPendulumHealthy extends InvertedPendulumEnv { protected override healthyRanges() { return { angle: widen(super.healthyRanges().angle) }; } }
class InvertedPendulumObs extends InvertedPendulumEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class InvertedPendulumSkip extends InvertedPendulumEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class InvertedDoublePendulumHealthy extends InvertedDoublePendulumEnv { protected override healthyRanges() { return { tipHeight: raiseFloor(super.healthyRanges().tipHeight) }; } }
class InvertedDoublePendulumObs extends InvertedDoublePendulumEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class InvertedDoublePendulumSkip extends InvertedDoublePendulumEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

class ReacherObs extends ReacherEnv { protected override observeState(i: number, out: Float32Array): void { super.observeState(i, out); swap01(out); } }
class ReacherSkip extends ReacherEnv { protected override robot(): RobotSpec { return oneMoreSkip(super.robot()); } }

const make = (Env: new (n: number, seed: number) => MujocoEnv): Make => (seed) => new Env(1, seed);

/**
 * Each task's broken ports, by fault. A fault a task cannot have is absent: no forward term
 * (the pendulums, Reacher), no `dt` in what the port computes (the same three: their reward reads
 * no velocity of their own), no healthy range (HalfCheetah, Swimmer, Reacher never end early).
 */
export const BROKEN: Record<string, Partial<Record<Fault, Make>>> = {
  'Hopper-v5': { 'forward sign': make(HopperForward), 'dt doubled': make(HopperDt), 'healthy range +10%': make(HopperHealthy), 'observation swapped': make(HopperObs), 'frame skip +1': make(HopperSkip) },
  'Walker2d-v5': { 'forward sign': make(Walker2dForward), 'dt doubled': make(Walker2dDt), 'healthy range +10%': make(Walker2dHealthy), 'observation swapped': make(Walker2dObs), 'frame skip +1': make(Walker2dSkip) },
  'HalfCheetah-v5': { 'forward sign': make(HalfCheetahForward), 'dt doubled': make(HalfCheetahDt), 'observation swapped': make(HalfCheetahObs), 'frame skip +1': make(HalfCheetahSkip) },
  'Swimmer-v5': { 'forward sign': make(SwimmerForward), 'dt doubled': make(SwimmerDt), 'observation swapped': make(SwimmerObs), 'frame skip +1': make(SwimmerSkip) },
  'Ant-v5': { 'forward sign': make(AntForward), 'dt doubled': make(AntDt), 'healthy range +10%': make(AntHealthy), 'observation swapped': make(AntObs), 'frame skip +1': make(AntSkip) },
  'InvertedPendulum-v5': { 'healthy range +10%': make(InvertedPendulumHealthy), 'observation swapped': make(InvertedPendulumObs), 'frame skip +1': make(InvertedPendulumSkip) },
  'InvertedDoublePendulum-v5': { 'healthy range +10%': make(InvertedDoublePendulumHealthy), 'observation swapped': make(InvertedDoublePendulumObs), 'frame skip +1': make(InvertedDoublePendulumSkip) },
  'Reacher-v5': { 'observation swapped': make(ReacherObs), 'frame skip +1': make(ReacherSkip) },
};
