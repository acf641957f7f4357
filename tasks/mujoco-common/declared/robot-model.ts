/**
 * A declaration held against its XML, once, when the task loads: every name it uses must be the
 * XML's (an unknown one is refused by field, with the names the XML has), and what the XML fixes is
 * read from it: each action's offset, scale and ctrlrange, each observation's default name and
 * typical range, the reset keyframe, and the robot's bodies, joints and actuators for the prompt.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isAbsolute } from 'node:path';
import { MujocoCopies } from '../../../physics/mujoco/copies.ts';
import { mujoco } from '../../../physics/mujoco/engine.ts';
import { ModelFileMissing, readModelFolder, type ModelFiles } from '../../../physics/mujoco/model-files.ts';
import { objectName } from '../../../physics/mujoco/names.ts';
import { describeValue, namesOf, stateReader, UnknownName, type StateValue } from '../state-values.ts';
import type { ActuatorAction, MujocoTaskDeclaration, ObservedValue } from './declaration.ts';

export class InvalidDeclaration extends Error {
  override readonly name = 'InvalidDeclaration';
}

/** How one action dimension becomes its actuator's ctrl: clip(offset + scale × action, low, high). */
export interface ActionMap {
  actuator: number;
  offset: number;
  scale: number;
  low: number;
  high: number;
}

export interface JointFacts { name: string; type: 'free' | 'ball' | 'slide' | 'hinge'; body: string; qposadr: number; dofadr: number; range: [number, number] | null }
export interface ActuatorFacts { name: string; kind: 'position' | 'velocity' | 'motor' | 'other'; target: string; ctrlrange: [number, number] | null; gear: number }

/** What the XML says, for the prompt, the card and the environment. */
export interface RobotModel {
  files: ModelFiles;
  timestep: number;
  nq: number;
  nv: number;
  /** The reset keyframe's id, or -1 for qpos0. */
  keyframe: number;
  /** The pose a reset starts from, before noise (the keyframe's qpos, or qpos0). */
  startQpos: Float64Array;
  /** The ctrl of actuators no action drives: the keyframe's (0 without one). */
  restCtrl: Float64Array;
  bodies: Array<{ name: string; parent: string; mass: number }>;
  joints: JointFacts[];
  actuators: ActuatorFacts[];
  sensors: Array<{ name: string; size: number }>;
  actions: ActionMap[];
  observation: Array<{ name: string; typical: [number, number] }>;
}

const JOINT_TYPES = ['free', 'ball', 'slide', 'hinge'] as const;
/** mjtGain / mjtBias AFFINE and mjtTrn JOINT: a position (or velocity) servo on a joint. */
const [AFFINE, TRN_JOINT] = [1, 0];

/** The declaration's MJCF as a file path. */
export function xmlPath(xml: URL | string, field = 'xml'): string {
  if (xml instanceof URL) return fileURLToPath(xml);
  if (!isAbsolute(xml)) throw new InvalidDeclaration(`${field}: ${JSON.stringify(xml)} is relative to wherever eureka runs: write new URL('${xml.startsWith('.') ? xml : `./${xml}`}', import.meta.url)`);
  return xml;
}

/** The declaration's MJCF file and the rest of its folder, read now, or an error naming the field. */
export function modelFilesOf(declaration: MujocoTaskDeclaration): ModelFiles {
  const path = xmlPath(declaration.xml);
  if (!existsSync(path)) throw new InvalidDeclaration(`xml: no file ${path}`);
  try {
    return readModelFolder(path);
  } catch (error) {
    // A file the XML names that is not where MuJoCo would open it: MuJoCo's refusal, said before it compiles.
    if (error instanceof ModelFileMissing) throw new InvalidDeclaration(`xml: MuJoCo does not compile ${path}: ${error.message}`);
    throw new InvalidDeclaration(`xml: ${(error as Error).message}`);
  }
}

/** The declaration against its XML (MuJoCo loaded): what it means, or an error naming the field. */
export function resolveRobot(declaration: MujocoTaskDeclaration, files: ModelFiles = modelFilesOf(declaration)): RobotModel {
  const path = xmlPath(declaration.xml);
  let copies: MujocoCopies;
  try {
    copies = new MujocoCopies({ xml: '', files, copies: 1, frameSkip: declaration.frameSkip });
  } catch (error) {
    throw new InvalidDeclaration(`xml: MuJoCo does not compile ${path}: ${(error as Error).message}`);
  }
  try {
    return describe(copies, declaration, files);
  } finally {
    copies.dispose();
  }
}

function describe(copies: MujocoCopies, d: MujocoTaskDeclaration, files: ModelFiles): RobotModel {
  const { model } = copies;
  const KINDS = { mjOBJ_BODY: 'body', mjOBJ_JOINT: 'jnt', mjOBJ_ACTUATOR: 'actuator', mjOBJ_SENSOR: 'sensor', mjOBJ_KEY: 'key' } as const;
  const name = (kind: keyof typeof KINDS, id: number) => objectName(model, KINDS[kind], id);
  const i32 = (a: unknown) => a as Int32Array;
  const f64 = (a: unknown) => a as Float64Array;
  // An unnamed body is "body N", as its children name their parent too (MuJoCo names the world "world").
  const bodyName = (b: number) => name('mjOBJ_BODY', b) || (b === 0 ? 'world' : `body ${b}`);
  const bodies = Array.from({ length: model.nbody }, (_, b) => ({ name: bodyName(b), parent: bodyName(i32(model.body_parentid)[b]), mass: f64(model.body_mass)[b] }));
  const joints: JointFacts[] = Array.from({ length: model.njnt }, (_, j) => ({
    name: name('mjOBJ_JOINT', j), type: JOINT_TYPES[i32(model.jnt_type)[j]], body: bodies[i32(model.jnt_bodyid)[j]].name,
    qposadr: i32(model.jnt_qposadr)[j], dofadr: i32(model.jnt_dofadr)[j],
    range: limited(f64(model.jnt_range), j),
  }));
  const actuators: ActuatorFacts[] = Array.from({ length: model.nu }, (_, u) => {
    const joint = i32(model.actuator_trntype)[u] === TRN_JOINT ? joints[i32(model.actuator_trnid)[2 * u]] : undefined;
    const gain = f64(model.actuator_gainprm)[10 * u];
    const bias = f64(model.actuator_biasprm).subarray(10 * u, 10 * u + 3);
    // MuJoCo's <position>: bias = -kp × length, gain kp; <velocity>: bias = -kv × velocity, gain kv.
    const affine = i32(model.actuator_biastype)[u] === AFFINE && joint !== undefined;
    const kind = affine && bias[1] === -gain && bias[2] === 0 ? 'position' : affine && bias[1] === 0 && bias[2] === -gain ? 'velocity' : i32(model.actuator_biastype)[u] === 0 && i32(model.actuator_gaintype)[u] === 0 ? 'motor' : 'other';
    return {
      name: name('mjOBJ_ACTUATOR', u), kind, target: joint?.name || '(not a named joint)',
      ctrlrange: limited(f64(model.actuator_ctrlrange), u),
      gear: f64(model.actuator_gear)[6 * u],
    };
  });
  const sensors = Array.from({ length: model.nsensor }, (_, s) => ({ name: name('mjOBJ_SENSOR', s) || `sensor ${s}`, size: i32(model.sensor_dim)[s] }));

  const keyframe = keyframeOf(copies, d.reset?.keyframe);
  const startQpos = keyframe < 0 ? Float64Array.from(copies.initQpos) : Float64Array.from(f64(model.key_qpos).subarray(keyframe * model.nq, (keyframe + 1) * model.nq));
  const keyCtrl = keyframe < 0 ? new Float64Array(model.nu) : f64(model.key_ctrl).subarray(keyframe * model.nu, (keyframe + 1) * model.nu);

  const check = (field: string, value: StateValue) => {
    try {
      stateReader(copies, value);
    } catch (error) {
      if (error instanceof UnknownName) throw new InvalidDeclaration(`${field}: ${error.message}`);
      throw error;
    }
  };
  d.observation.forEach((o, k) => check(`observation.${k}.value`, o.value));
  d.recorded?.forEach((r, k) => check(`recorded.${k}.value`, r.value));
  if (d.termination !== undefined && d.termination !== 'none') d.termination.healthy.forEach((h, k) => check(`termination.healthy.${k}.value`, h.value));

  const actuatorNames = namesOf(copies, 'mjOBJ_ACTUATOR');
  const actions = d.actions.map((a, k) => actionMap(`actions.${k}`, a, actuators, actuatorNames, startQpos, keyCtrl, joints));
  const observation = d.observation.map((o) => ({ name: o.name ?? defaultName(o.value, joints), typical: o.typical ? [o.typical[0], o.typical[1]] as [number, number] : defaultTypical(o, joints, startQpos) }));
  return { files, timestep: model.opt.timestep, nq: model.nq, nv: model.nv, keyframe, startQpos, restCtrl: Float64Array.from(keyCtrl), bodies, joints, actuators, sensors, actions, observation };
}

/**
 * Entry k's range where it is limited. The bindings cannot read MuJoCo's boolean arrays
 * (`jnt_limited`, `actuator_ctrllimited`), and a range left unlimited compiles to [0, 0].
 */
function limited(ranges: Float64Array, k: number): [number, number] | null {
  const [lo, hi] = [ranges[2 * k], ranges[2 * k + 1]];
  return lo < hi ? [lo, hi] : null;
}

function keyframeOf(copies: MujocoCopies, keyframe: string | undefined): number {
  if (keyframe === undefined) return -1;
  const mj = mujoco();
  const id = mj.mj_name2id(copies.model, mj.mjtObj.mjOBJ_KEY.value, keyframe);
  if (id >= 0) return id;
  const names = Array.from({ length: copies.model.nkey }, (_, k) => objectName(copies.model, 'key', k)).filter((n) => n !== '');
  throw new InvalidDeclaration(`reset.keyframe: the model has no keyframe named ${JSON.stringify(keyframe)} (its keyframes: ${names.join(', ') || 'none'})`);
}

function actionMap(field: string, a: ActuatorAction, actuators: ActuatorFacts[], names: string[], startQpos: Float64Array, keyCtrl: Float64Array, joints: JointFacts[]): ActionMap {
  const u = actuators.findIndex((x) => x.name === a.actuator);
  if (u < 0) throw new InvalidDeclaration(`${field}.actuator: the model has no actuator named ${JSON.stringify(a.actuator)} (its actuators: ${names.join(', ') || 'none'})`);
  const facts = actuators[u];
  const [low, high] = facts.ctrlrange ?? [-Infinity, Infinity];
  let offset: number;
  if (a.offset === 'keyframe') {
    // A position servo's target is its joint's position times the gear: at the keyframe, where it stands.
    const joint = joints.find((j) => j.name === facts.target);
    offset = facts.kind === 'position' && joint !== undefined ? facts.gear * startQpos[joint.qposadr] : keyCtrl[u];
  } else if (a.offset !== undefined) offset = a.offset;
  else if (facts.ctrlrange) offset = (low + high) / 2;
  else throw new InvalidDeclaration(`${field}: actuator ${a.actuator} has no ctrlrange: give it an offset and a scale`);
  const scale = a.scale ?? (facts.ctrlrange ? (high - low) / 2 : undefined);
  if (scale === undefined) throw new InvalidDeclaration(`${field}: actuator ${a.actuator} has no ctrlrange: give it a scale`);
  return { actuator: u, offset, scale, low, high };
}

const UNITS = { free: 'm', slide: 'm', hinge: 'rad', ball: '' } as const;

/** "joint hip position (rad)", "body torso z (m)". */
function defaultName(value: StateValue, joints: JointFacts[]): string {
  const words = describeValue(value);
  if ('joint' in value) {
    const joint = joints.find((j) => j.name === value.joint);
    const type = joint?.type ?? 'hinge';
    const rotation = type === 'ball' || (type === 'free' && (value.index ?? 0) >= 3);
    const unit = value.of === 'velocity' ? (rotation || type === 'hinge' ? 'rad/s' : 'm/s') : rotation ? 'quaternion' : UNITS[type];
    return `${words} (${unit})`;
  }
  if ('body' in value) {
    const unit = { x: 'm', y: 'm', z: 'm', heading: 'rad', roll: 'rad', pitch: 'rad', vx: 'm/s', vy: 'm/s', vz: 'm/s', wx: 'rad/s', wy: 'rad/s', wz: 'rad/s' }[value.of];
    return `${words} (${unit})`;
  }
  if ('site' in value) return `${words} (m)`;
  return words;
}

/**
 * Where a value usually stays, when the folder does not say: a limited joint's range; otherwise
 * rough ranges by kind (the trainer also normalizes MuJoCo's observations as it goes: ppo.ts).
 */
function defaultTypical(o: ObservedValue, joints: JointFacts[], startQpos: Float64Array): [number, number] {
  const v = o.value;
  const clip = (r: [number, number]): [number, number] => (o.clip === undefined ? r : [Math.max(r[0], -o.clip), Math.min(r[1], o.clip)]);
  if ('joint' in v) {
    const joint = joints.find((j) => j.name === v.joint);
    if (v.of === 'velocity') return clip(joint?.type === 'slide' || (joint?.type === 'free' && (v.index ?? 0) < 3) ? [-5, 5] : [-10, 10]);
    if (joint?.range && (joint.type === 'hinge' || joint.type === 'slide')) return joint.range;
    if (joint?.type === 'hinge') return [-Math.PI, Math.PI];
    if (joint?.type === 'free' && (v.index ?? 0) < 3) {
      const start = startQpos[joint.qposadr + (v.index ?? 0)];
      return (v.index ?? 0) === 2 ? [0, Math.max(0.1, 2 * start)] : [start - 5, start + 5];
    }
    return [-1, 1];
  }
  if ('body' in v) {
    if (v.of === 'z') return [0, 2];
    if (v.of === 'x' || v.of === 'y') return [-5, 5];
    if (v.of === 'heading') return [-Math.PI, Math.PI];
    if (v.of === 'roll' || v.of === 'pitch') return [-Math.PI / 2, Math.PI / 2];
    return clip(v.of.startsWith('v') ? [-5, 5] : [-10, 10]);
  }
  if ('site' in v) return v.of === 'z' ? [0, 2] : [-5, 5];
  return clip([-1, 1]);
}
