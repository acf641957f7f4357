/**
 * Gymnasium's MujocoEnv (gymnasium/envs/mujoco/mujoco_env.py) on MuJoCo's WebAssembly build, for n
 * copies: one MjData each (physics/mujoco/copies.ts), reset with Gymnasium's noise, stepped with
 * its frame skip, auto-reset and time limit by the shared vector environment. A task's environment
 * extends it with its own step (reward, termination) and observation, as Gymnasium's v5 files do.
 *
 * Each copy's whole physics state (warm start included) and the generator go into `snapshot()`,
 * so a seed-run trained in chunks ends bit for bit as one trained in one piece.
 */
import type { Random } from '../../core/random.ts';
import { MujocoCopies } from '../../physics/mujoco/copies.ts';
import { loadMujoco } from '../../physics/mujoco/engine.ts';
import type { ModelFiles } from '../../physics/mujoco/model-files.ts';
import type { EnvSnapshot } from '../contract.ts';
import { restoreRecord, VectorEnv, type StepOutcome } from '../vector-env.ts';
import type { DotRounding } from './numpy-norm.ts';

/** A MuJoCo task's `prepare`: the engine loaded, once per process. */
export async function prepareMujoco(): Promise<void> {
  await loadMujoco();
}

/** What a task says of its robot: Gymnasium's constructor defaults. */
export interface RobotSpec {
  /** The MJCF file's text (Gymnasium's asset). */
  xml: string;
  /** The model as files, its includes and assets beside it (a declared robot's folder), compiled in place of `xml`. @default none */
  files?: ModelFiles;
  frameSkip: number;
  /** Reset noise: uniform in ±scale on every qpos and qvel (Gymnasium's reset_noise_scale). */
  resetNoiseScale: number;
  obsSize: number;
  actionSize: number;
  maxEpisodeSteps: number;
  /** Values the task records per copy beside the observation (its recordState). @default 0 */
  recordSize?: number;
  /**
   * Gymnasium runs mj_rnePostConstraint after every step, for the contact forces some observations
   * read (Ant's cfrc_ext); it changes no state, so a task whose observation reads none skips it. @default true
   */
  rnePostConstraint?: boolean;
  /**
   * A declared robot's reset keyframe (its index) and how each action becomes a ctrl, for the native
   * benches to start and drive it as this environment does (bench/mujoco-speed.ts). @default none: qpos0, ctrl uniform in each ctrlrange
   */
  native?: { keyframe: number; actions: ReadonlyArray<{ actuator: number; offset: number; scale: number }> };
}

/** The reward's terms of the last step, by Gymnasium's v5 `info` names (reward_forward, reward_ctrl, ...). */
export type StepInfo = Record<string, number>;

/** One copy's index: its MjData is `copies.data[index]`. */
export type CopyIndex = number;

export abstract class MujocoEnv extends VectorEnv<CopyIndex> {
  /** Made by the first createState, which the base constructor calls before this class's fields exist. */
  declare protected copies: MujocoCopies;
  /** Each copy's last step's reward terms, as Gymnasium's info. */
  declare readonly info: StepInfo[];
  /** Copies handed out by createState so far. */
  declare private made: number;
  /**
   * How the numpy norms of `info` round their last bit (numpy-norm.ts): BLAS's choice on the
   * recording machine, so conformance sets it to the recording's; nothing else reads those bits.
   */
  dotRounding: DotRounding = 'separate';
  /** Where the next step of each copy ends, when it is given instead of simulated (conformance's logic check). */
  declare private given: Map<CopyIndex, { qpos: ArrayLike<number>; qvel: ArrayLike<number> }> | undefined;

  constructor(n: number, seed: number) {
    super(n, seed, shapeOf(new.target.prototype as MujocoEnv));
  }

  /** The robot's XML, frame skip, noise and spaces: a prototype method, read during construction. */
  protected abstract robot(): RobotSpec;

  protected createState(): CopyIndex {
    if (this.copies === undefined) {
      const robot = this.robot();
      this.copies = new MujocoCopies({ xml: robot.xml, files: robot.files, copies: this.n, frameSkip: robot.frameSkip, rnePostConstraint: robot.rnePostConstraint });
      (this as { info: StepInfo[] }).info = Array.from({ length: this.n }, () => ({}));
      finalizer.register(this, this.copies, this);
      this.made = 0;
    }
    return this.made++;
  }

  /**
   * Where a reset starts before its noise: the model's qpos0 (Gymnasium's init_qpos), or a keyframe's
   * where a task's overrides name one (overridden.ts).
   */
  protected startQpos(): Float64Array {
    return this.copies.initQpos;
  }

  /** Gymnasium's reset: mj_resetData, then reset_model's noise on qpos (first) and qvel, and set_state. */
  protected resetState(i: CopyIndex, rng: Random): void {
    const { copies } = this;
    const scale = this.robot().resetNoiseScale;
    copies.resetData(i);
    const qpos = this.startQpos().map((q) => q + rng.uniform(-scale, scale));
    const qvel = new Float64Array(copies.nv).map(() => rng.uniform(-scale, scale));
    copies.setState(i, qpos, qvel);
    this.info[i] = {};
  }

  protected abstract stepState(i: CopyIndex, action: Float64Array): StepOutcome;
  protected abstract observeState(i: CopyIndex, out: Float32Array): void;

  /** Gymnasium's do_simulation with the float32 action it receives (the action space is float32). */
  protected doSimulation(i: CopyIndex, action: Float64Array): void {
    for (let k = 0; k < action.length; k++) action[k] = Math.fround(action[k]);
    const given = this.given?.get(i);
    if (given === undefined) {
      this.copies.doSimulation(i, action);
      return;
    }
    this.given?.delete(i);
    this.copies.setState(i, given.qpos, given.qvel);
  }

  /**
   * The next step of copy i ends where a recording says, not where our physics would take it: the
   * environment's own logic (observation, reward terms, termination) is then checked on its own.
   */
  giveNextState(i: CopyIndex, qpos: ArrayLike<number>, qvel: ArrayLike<number>): void {
    (this.given ??= new Map()).set(i, { qpos, qvel });
  }

  get dt(): number {
    return this.copies.dt;
  }

  /** The robot's XML, frame skip and spaces (the benchmark runs native MuJoCo on the same). */
  get robotSpec(): RobotSpec {
    return this.robot();
  }

  qpos(i: CopyIndex): Float64Array {
    return this.copies.qpos(i);
  }

  qvel(i: CopyIndex): Float64Array {
    return this.copies.qvel(i);
  }

  /** Copy i set to a recorded state (conformance): qpos, qvel and, where given, the warm start. */
  setRecordedState(i: CopyIndex, qpos: ArrayLike<number>, qvel: ArrayLike<number>, warmstart?: ArrayLike<number>): void {
    this.copies.setState(i, qpos, qvel);
    if (warmstart) (this.copies.data[i].qacc_warmstart as Float64Array).set(warmstart);
  }

  /**
   * Copy i set to the recorded state its last step ended in, keeping what the environment holds
   * beside MuJoCo's state from that step's last sub-step (Ant's torso position): as Gymnasium's next
   * step reads it. Where nothing is held, setRecordedState.
   */
  continueFromRecordedState(i: CopyIndex, qpos: ArrayLike<number>, qvel: ArrayLike<number>, warmstart?: ArrayLike<number>): void {
    this.setRecordedState(i, qpos, qvel, warmstart);
  }

  snapshot(): EnvSnapshot {
    const size = this.copies.stateSize;
    const physics = new Float64Array(this.n * size);
    for (let i = 0; i < this.n; i++) this.copies.saveState(i, physics, i * size);
    return { physics, elapsed: Int32Array.from(this.elapsed), obs: Float32Array.from(this.obs), record: Float64Array.from(this.record), rng: this.rng.state() };
  }

  restore(snapshot: EnvSnapshot): void {
    const { physics, elapsed, obs, record, rng } = snapshot;
    const size = this.copies.stateSize;
    if (!(physics instanceof Float64Array) || physics.length !== this.n * size || elapsed?.length !== this.n || obs?.length !== this.obs.length || !rng) {
      throw new Error(`a snapshot of another environment (${this.n} copies of ${size} MuJoCo state values expected)`);
    }
    for (let i = 0; i < this.n; i++) this.copies.loadState(i, physics.subarray(i * size, (i + 1) * size));
    this.elapsed.set(elapsed);
    this.obs.set(obs);
    restoreRecord(this.record, record);
    this.rng.restore(rng);
  }

  /** Frees the copies' MuJoCo objects (also done when the environment is collected, as a backstop). */
  dispose(): void {
    finalizer.unregister(this);
    this.copies.dispose();
  }
}

function shapeOf(prototype: MujocoEnv): { obsSize: number; actionSize: number; maxEpisodeSteps: number; recordSize: number } {
  const robot = (prototype as unknown as { robot(): RobotSpec }).robot();
  return { obsSize: robot.obsSize, actionSize: robot.actionSize, maxEpisodeSteps: robot.maxEpisodeSteps, recordSize: robot.recordSize ?? 0 };
}

/** An environment dropped without dispose() still frees its copies when it is collected. */
const finalizer = new FinalizationRegistry<MujocoCopies>((copies) => copies.dispose());
