/**
 * One of Gymnasium's robots with a task's overrides (overrides.ts): its environment class extended,
 * its XML, physics, observation and own reward untouched. The time limit, the reset's noise and
 * keyframe, the termination and more recorded state are what change; where the overrides give
 * healthy ranges they stand for the robot's own `is_healthy` in its reward's survive term too, as
 * Gymnasium's `healthy_*_range` arguments do, and 'none' is Gymnasium's
 * `terminate_when_unhealthy=False` (the survive term is still paid only while healthy).
 */
import type { MujocoCopies } from '../../physics/mujoco/copies.ts';
import { mujoco } from '../../physics/mujoco/engine.ts';
import type { StepOutcome } from '../vector-env.ts';
import { MujocoEnv, type RobotSpec } from './mujoco-env.ts';
import type { HealthyRange, MujocoOverrides } from './overrides.ts';
import { stateReader, UnknownName, type StateReader } from './state-values.ts';

/** An environment class of one of the robots: n copies from a seed. */
export type MujocoEnvClass = new (n: number, seed: number) => MujocoEnv;

/** What every robot's class is: MujocoEnv with its step, observation and spec written (a type only). */
declare class RobotEnv extends MujocoEnv {
  protected robot(): RobotSpec;
  protected stepState(i: number, action: Float64Array): StepOutcome;
  protected observeState(i: number, out: Float32Array): void;
}

/** The robot's class with the overrides; names in them are checked against its XML when the first copies are made. */
export function overridden(Base: MujocoEnvClass, overrides: MujocoOverrides): MujocoEnvClass {
  const extra = overrides.recorded ?? [];
  const ranges = overrides.termination !== undefined && overrides.termination !== 'none' ? overrides.termination.healthy : null;
  let spec: RobotSpec | undefined;

  class Overridden extends (Base as unknown as typeof RobotEnv) {
    declare private recordedReaders: StateReader[] | undefined;
    declare private rangeReaders: Array<{ read: StateReader; range: HealthyRange }> | undefined;
    declare private keyQpos: Float64Array | undefined;

    protected override robot(): RobotSpec {
      if (spec !== undefined) return spec;
      const base = super.robot();
      spec = {
        ...base,
        maxEpisodeSteps: overrides.maxEpisodeSteps ?? base.maxEpisodeSteps,
        resetNoiseScale: overrides.reset?.noise ?? base.resetNoiseScale,
        recordSize: (base.recordSize ?? 0) + extra.length,
      };
      return spec;
    }

    protected override startQpos(): Float64Array {
      const keyframe = overrides.reset?.keyframe;
      if (keyframe === undefined) return super.startQpos();
      this.keyQpos ??= named('overrides.reset.keyframe', () => keyframeQpos(this.copies, keyframe));
      return this.keyQpos;
    }

    /** The declared healthy ranges, where the overrides give them; the robot's own test otherwise. */
    isHealthy(i: number): boolean {
      if (ranges === null) return (Base.prototype as unknown as { isHealthy(this: MujocoEnv, i: number): boolean }).isHealthy.call(this, i);
      this.rangeReaders ??= ranges.map((range, k) => ({ read: named(`overrides.termination.healthy[${k}].value`, () => stateReader(this.copies, range.value)), range }));
      return this.rangeReaders.every(({ read, range }) => {
        const v = read(i, null);
        return (range.min === undefined || range.min < v) && (range.max === undefined || v < range.max);
      });
    }

    protected override stepState(i: number, action: Float64Array): StepOutcome {
      const outcome = super.stepState(i, action);
      if (overrides.termination === undefined) return outcome;
      return { reward: outcome.reward, terminated: overrides.termination === 'none' ? false : !this.isHealthy(i) };
    }

    protected override recordState(i: number, out: Float64Array, previous: Float64Array | null): void {
      const size = out.length - extra.length;
      super.recordState(i, out.subarray(0, size), previous === null ? null : previous.subarray(0, size));
      this.recordedReaders ??= extra.map((e, k) => named(`overrides.recorded[${k}] (${e.name})`, () => stateReader(this.copies, e.value)));
      for (let k = 0; k < extra.length; k++) out[size + k] = this.recordedReaders[k](i, previous === null ? null : previous[size + k]);
    }
  }
  // Only the robots Gymnasium gives a healthy test have one to stand for.
  if (ranges === null && typeof (Base.prototype as { isHealthy?: unknown }).isHealthy !== 'function') {
    delete (Overridden.prototype as { isHealthy?: unknown }).isHealthy;
  }
  return Overridden;
}

/** What `read` makes, its UnknownName said with the override's field. */
function named<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnknownName) throw new UnknownName(`${field}: ${error.message}`);
    throw error;
  }
}

/** A keyframe's qpos from the robot's XML, by name. */
function keyframeQpos(copies: MujocoCopies, name: string): Float64Array {
  const { model } = copies;
  const mj = mujoco();
  const id = mj.mj_name2id(model, mj.mjtObj.mjOBJ_KEY.value, name);
  if (id < 0) throw new UnknownName(`the robot's XML has no keyframe named ${JSON.stringify(name)}`);
  const nq = model.nq;
  return Float64Array.from((model.key_qpos as Float64Array).subarray(id * nq, (id + 1) * nq));
}
