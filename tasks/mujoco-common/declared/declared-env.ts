/**
 * The vectorized environment of a declared robot: MujocoEnv (n copies, frame skip, auto-reset, the
 * time limit, snapshots to the last bit, dispose) with what the declaration says in place of a
 * hand-written step:
 *
 * - action: each dimension in [-1, 1] drives one actuator, ctrl = clip(offset + scale × action,
 *   ctrlrange) (robot-model.ts); the reward sees the action, not the ctrl;
 * - reset: the keyframe (mj_resetDataKeyframe: its qpos, qvel, ctrl) or qpos0, then uniform noise
 *   in ±noise on every qpos entry and then every qvel entry, as Gymnasium's robots draw theirs;
 * - observation: each declared value (state-values.ts), clipped where it says, as float32;
 * - termination: a healthy range left (open ranges, as Gymnasium's), or never ('none');
 * - reward: none of its own (0 every step): the baselines are reward files like any candidate's.
 */
import type { Random } from '../../../core/random.ts';
import { mujoco } from '../../../physics/mujoco/engine.ts';
import type { StepOutcome } from '../../vector-env.ts';
import { InvalidTask } from '../../invalid-task.ts';
import { MujocoEnv, type CopyIndex, type RobotSpec } from '../mujoco-env.ts';
import type { HealthyRange } from '../overrides.ts';
import { stateReader, type StateReader } from '../state-values.ts';
import type { MujocoTaskDeclaration } from './declaration.ts';
import type { RobotModel } from './robot-model.ts';

export type DeclaredEnvClass = new (n: number, seed: number) => MujocoEnv;

/** A MujocoEnv class for this declaration (MujocoEnv reads its shape from the prototype's robot()). */
export function declaredEnvClass(declaration: MujocoTaskDeclaration, robot: RobotModel): DeclaredEnvClass {
  const spec: RobotSpec = {
    xml: '',
    files: robot.files,
    frameSkip: declaration.frameSkip,
    resetNoiseScale: declaration.reset?.noise ?? 0,
    obsSize: declaration.observation.length,
    actionSize: declaration.actions.length,
    maxEpisodeSteps: declaration.maxEpisodeSteps,
    recordSize: declaration.recorded?.length ?? 0,
    rnePostConstraint: declaration.rnePostConstraint ?? false,
    native: { keyframe: robot.keyframe, actions: robot.actions.map(({ actuator, offset, scale }) => ({ actuator, offset, scale })) },
  };
  const healthy: readonly HealthyRange[] = declaration.termination === undefined || declaration.termination === 'none' ? [] : declaration.termination.healthy;
  const clips = declaration.observation.map((o) => o.clip ?? Infinity);

  return class DeclaredEnv extends MujocoEnv {
    /** Made on the first createState, once the copies exist (the base constructor calls it before this class's fields). */
    declare private readers: { observation: StateReader[]; recorded: StateReader[]; healthy: StateReader[]; ctrl: Float64Array; fresh: Uint8Array };

    protected robot(): RobotSpec {
      return spec;
    }

    protected override createState(): CopyIndex {
      const i = super.createState();
      this.readers ??= {
        observation: declaration.observation.map((o) => stateReader(this.copies, o.value)),
        recorded: (declaration.recorded ?? []).map((r) => stateReader(this.copies, r.value)),
        healthy: healthy.map((h) => stateReader(this.copies, h.value)),
        // Actuators no action drives hold the keyframe's ctrl.
        ctrl: Float64Array.from(robot.restCtrl),
        fresh: new Uint8Array(this.n),
      };
      return i;
    }

    protected override resetState(i: CopyIndex, rng: Random): void {
      const { copies } = this;
      if (robot.keyframe < 0) copies.resetData(i);
      else mujoco().mj_resetDataKeyframe(copies.model, copies.data[i], robot.keyframe);
      const scale = spec.resetNoiseScale;
      const qpos = Float64Array.from(copies.qpos(i), (q) => q + rng.uniform(-scale, scale));
      const qvel = Float64Array.from(copies.qvel(i), (v) => v + rng.uniform(-scale, scale));
      copies.setState(i, qpos, qvel);
      this.info[i] = {};
      // The next observation is an episode's first: a heading has no turn before it to count from.
      this.readers.fresh[i] = 1;
    }

    protected stepState(i: CopyIndex, action: Float64Array): StepOutcome {
      const { ctrl } = this.readers;
      for (const [k, a] of robot.actions.entries()) ctrl[a.actuator] = Math.min(a.high, Math.max(a.low, a.offset + a.scale * action[k]));
      const before = this.copies.data[i].time;
      this.doSimulation(i, ctrl);
      // MuJoCo resets a state whose acceleration, velocity or position went bad (NaN, Inf or huge)
      // and goes on, its clock back at 0: a run would train on that silently, so it stops here.
      if (this.copies.data[i].time < before + (spec.frameSkip - 0.5) * robot.timestep) throw this.unstable(i);
      return { reward: 0, terminated: !this.isHealthy(i) };
    }

    /** What went bad, in MuJoCo's words where its warning counters say (mjWARN_BADQPOS, BADQVEL, BADQACC). */
    private unstable(i: CopyIndex): InvalidTask {
      const mj = mujoco();
      const words = `the robot's simulation went unstable at step ${this.elapsed[i] + 1} of an episode`;
      const advice = ', and MuJoCo reset it: lower the timestep or the actuators\' gear or ctrlrange, or add joint damping or armature';
      const warnings = this.copies.data[i].warning;
      const bad = [mj.mjtWarning.mjWARN_BADQACC.value, mj.mjtWarning.mjWARN_BADQVEL.value, mj.mjtWarning.mjWARN_BADQPOS.value]
        .map((w) => ({ w, stat: warnings.get(w) })).find(({ stat }) => (stat?.number ?? 0) > 0);
      if (bad === undefined) return new InvalidTask(`${words} (its state went bad)${advice}`);
      // QACC and QVEL name a degree of freedom: its joint's name says more to the one who wrote the XML.
      const dof = bad.stat!.lastinfo;
      const joint = bad.w === mj.mjtWarning.mjWARN_BADQPOS.value ? '' : robot.joints.find((j) => j.dofadr <= dof && dof < j.dofadr + { free: 6, ball: 3, slide: 1, hinge: 1 }[j.type])?.name ?? '';
      return new InvalidTask(`${words} (MuJoCo: ${mj.mju_warningText(bad.w, dof).replace(/\.? *$/, '')}${joint === '' ? '' : `; DOF ${dof} is joint ${joint}`})${advice}`);
    }

    /** Every healthy range holds (open at both ends); always, where termination is 'none'. */
    isHealthy(i: CopyIndex): boolean {
      return healthy.every((h, k) => {
        const v = this.readers.healthy[k](i, null);
        return (h.min === undefined || h.min < v) && (h.max === undefined || v < h.max);
      });
    }

    protected observeState(i: CopyIndex, out: Float32Array): void {
      const { observation, fresh } = this.readers;
      const size = observation.length;
      for (let k = 0; k < size; k++) {
        // The observation before this one, for a heading that keeps counting turns (float32 is enough to count them).
        const previous = fresh[i] === 1 ? null : this.obs[i * size + k];
        const v = observation[k](i, previous);
        out[k] = Math.min(clips[k], Math.max(-clips[k], v));
      }
      fresh[i] = 0;
    }

    protected override recordState(i: CopyIndex, out: Float64Array, previous: Float64Array | null): void {
      const { recorded } = this.readers;
      for (let k = 0; k < recorded.length; k++) out[k] = recorded[k](i, previous === null ? null : previous[k]);
    }
  };
}
