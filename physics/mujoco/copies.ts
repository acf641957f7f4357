/**
 * N copies of one MuJoCo model: one `MjModel` compiled from an XML string (or from files through the
 * engine's virtual file system: model-files.ts) and one `MjData` per copy,
 * stepped with the C API's own names (`mj_resetData`, `mj_forward`, `mj_step`,
 * `mj_rnePostConstraint`, `mj_getState`, `mj_setState`). Large arrays are read as live views into
 * the engine's memory, kept per copy (each fetch through the bindings costs a call) and fetched
 * again once the WebAssembly memory grew (another copy, another model), which detaches them.
 * `dispose()` frees every object once.
 */
import { mujoco, type MjData, type MjModel } from './engine.ts';
import { compileModel, type ModelFiles } from './model-files.ts';

export interface CopiesOptions {
  /** The model's MJCF, as a string (no files beside it), where `files` is not given. */
  xml: string;
  /** The model as files (an MJCF with its includes and assets, model-files.ts): compiled through the engine's VFS, in place of `xml`. */
  files?: ModelFiles;
  copies: number;
  /** `mj_step` calls per environment step (Gymnasium's frame_skip). */
  frameSkip: number;
  /** Run `mj_rnePostConstraint` after the steps, as Gymnasium's MujocoEnv does (cfrc_ext). @default true */
  rnePostConstraint?: boolean;
}

export class MujocoCopies {
  readonly model: MjModel;
  readonly data: MjData[] = [];
  readonly nq: number;
  readonly nv: number;
  readonly nu: number;
  /** The model's qpos0 (Gymnasium's init_qpos); init_qvel is zeros. */
  readonly initQpos: Float64Array;
  /** Values of one copy's whole physics state (`mjSTATE_INTEGRATION`: warm start, ctrl, applied forces included). */
  readonly stateSize: number;
  private readonly stateSpec: number;
  private readonly rne: boolean;
  private disposed = false;
  private views: Array<{ qpos: Float64Array; qvel: Float64Array; ctrl: Float64Array }> = [];

  constructor(readonly options: CopiesOptions) {
    const mj = mujoco();
    this.model = compileModel(options.files ?? options.xml);
    try {
      for (let i = 0; i < options.copies; i++) this.data.push(new mj.MjData(this.model));
    } catch (error) {
      this.dispose();
      throw error;
    }
    this.nq = this.model.nq;
    this.nv = this.model.nv;
    this.nu = this.model.nu;
    this.initQpos = Float64Array.from(this.model.qpos0 as Float64Array);
    this.stateSpec = mj.mjtState.mjSTATE_INTEGRATION.value;
    this.stateSize = mj.mj_stateSize(this.model, this.stateSpec);
    this.rne = options.rnePostConstraint ?? true;
  }

  get dt(): number {
    return this.model.opt.timestep * this.options.frameSkip;
  }

  qpos(i: number): Float64Array {
    return this.view(i).qpos;
  }

  qvel(i: number): Float64Array {
    return this.view(i).qvel;
  }

  /** Copy i's live arrays; fetched again when the memory grew (a detached view has length 0). */
  private view(i: number): { qpos: Float64Array; qvel: Float64Array; ctrl: Float64Array } {
    const cached = this.views[i];
    if (cached !== undefined && cached.qpos.length === this.nq) return cached;
    const data = this.data[i];
    const fresh = { qpos: data.qpos as Float64Array, qvel: data.qvel as Float64Array, ctrl: data.ctrl as Float64Array };
    this.views[i] = fresh;
    return fresh;
  }

  /** Gymnasium's reset: `mj_resetData`. */
  resetData(i: number): void {
    mujoco().mj_resetData(this.model, this.data[i]);
  }

  /** Gymnasium's set_state: qpos and qvel written, then `mj_forward`. */
  setState(i: number, qpos: ArrayLike<number>, qvel: ArrayLike<number>): void {
    this.qpos(i).set(qpos);
    this.qvel(i).set(qvel);
    mujoco().mj_forward(this.model, this.data[i]);
  }

  /** Gymnasium's do_simulation: ctrl = action, frame_skip × `mj_step`, then `mj_rnePostConstraint`. */
  doSimulation(i: number, ctrl: ArrayLike<number>): void {
    const mj = mujoco();
    const data = this.data[i];
    this.view(i).ctrl.set(ctrl);
    for (let k = 0; k < this.options.frameSkip; k++) mj.mj_step(this.model, data);
    if (this.rne) mj.mj_rnePostConstraint(this.model, data);
  }

  /** Copy i's whole physics state into out (stateSize values from `at`). */
  saveState(i: number, out: Float64Array, at = 0): void {
    const mj = mujoco();
    const buffer = new mj.DoubleBuffer(this.stateSize);
    try {
      mj.mj_getState(this.model, this.data[i], buffer, this.stateSpec);
      out.set(buffer.GetView() as Float64Array, at);
    } finally {
      buffer.delete();
    }
  }

  /** Puts copy i back where `saveState` found it; derived quantities follow on the next `mj_step`. */
  loadState(i: number, values: Float64Array): void {
    if (values.length !== this.stateSize) throw new RangeError(`a MuJoCo state has ${this.stateSize} values here, not ${values.length}`);
    mujoco().mj_setState(this.model, this.data[i], values as unknown as number[], this.stateSpec);
  }

  /** Frees every copy and the model, once. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.views = [];
    for (const data of this.data.splice(0)) data.delete();
    this.model.delete();
  }
}
