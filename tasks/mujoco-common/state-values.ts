/**
 * Values read off a MuJoCo copy by the names in the robot's XML: a joint's position or velocity, a
 * body's or site's world position, a body's heading about the vertical, a sensor's reading. The
 * vocabulary a behaviour's recorded state and healthy ranges are written in (overrides.ts), and a
 * declared robot's observation: names, not indices, so a reader can hold the folder beside its XML.
 *
 * Positions are MuJoCo's `xpos`/`site_xpos` as the last sub-step left them (one sub-step behind
 * qpos, as Gymnasium's observations read them); a joint's are qpos and qvel, current. A body's
 * orientation (roll, pitch, heading) comes from its `xquat`, its velocities from `cvel` (what
 * `mj_objectVelocity` reads), both as the last sub-step left them too: they name what an unnamed
 * joint holds (Menagerie's `<freejoint/>` has no name), as the body it moves.
 */
import type { MujocoCopies } from '../../physics/mujoco/copies.ts';
import { mujoco } from '../../physics/mujoco/engine.ts';
import { objectName } from '../../physics/mujoco/names.ts';
import { unwrap } from './recorded.ts';

export type StateValue =
  /** A joint's qpos entry (its velocity's qvel entry with `of: 'velocity'`); a free or ball joint has several (`index`). */
  | { joint: string; of?: 'position' | 'velocity'; index?: number }
  /**
   * A body's world position along x, y or z (m), or its heading about the vertical (rad, 0 along +x,
   * counting past ±π); its roll and pitch (rad: the x and y angles of its z-y-x Euler angles, whose
   * z angle is the heading); its frame's linear velocity along world x, y, z (m/s: `vx`, `vy`, `vz`)
   * and its angular velocity about world x, y, z (rad/s: `wx`, `wy`, `wz`).
   */
  | { body: string; of: BodyQuantity }
  /** A site's world position along x, y or z (m). */
  | { site: string; of: 'x' | 'y' | 'z' }
  /** A sensor's reading (`index` into a sensor of several values). */
  | { sensor: string; index?: number };

/** What of a body a value reads (its position, orientation or velocity). */
export type BodyQuantity = 'x' | 'y' | 'z' | 'heading' | 'roll' | 'pitch' | 'vx' | 'vy' | 'vz' | 'wx' | 'wy' | 'wz';

/** Reads one value of copy i; `previous` is the value before this step (null at a reset), for what keeps counting. */
export type StateReader = (i: number, previous: number | null) => number;

export class UnknownName extends Error {
  override readonly name = 'UnknownName';
}

const AXIS = { x: 0, y: 1, z: 2 } as const;

/** The reader of `value` on these copies; an unknown name or an index past the value's size is refused by name. */
export function stateReader(copies: MujocoCopies, value: StateValue): StateReader {
  const { model } = copies;
  if ('joint' in value) {
    const id = idOf(copies, 'mjOBJ_JOINT', value.joint, 'joint');
    const velocity = value.of === 'velocity';
    const type = (model.jnt_type as Int32Array)[id];
    // mjJNT_FREE 0 (7 positions, 6 velocities), BALL 1 (4, 3), SLIDE 2 and HINGE 3 (1, 1).
    const size = velocity ? [6, 3, 1, 1][type] : [7, 4, 1, 1][type];
    const index = value.index ?? 0;
    if (!(Number.isInteger(index) && index >= 0 && index < size)) throw new UnknownName(`joint ${value.joint} has ${size} ${velocity ? 'velocity' : 'position'} values, not an index ${index}`);
    const at = (velocity ? (model.jnt_dofadr as Int32Array) : (model.jnt_qposadr as Int32Array))[id] + index;
    return velocity ? (i) => copies.qvel(i)[at] : (i) => copies.qpos(i)[at];
  }
  if ('body' in value) {
    const id = idOf(copies, 'mjOBJ_BODY', value.body, 'body');
    if (value.of === 'heading') {
      return (i, previous) => {
        const q = copies.data[i].xquat as Float64Array;
        const [w, x, y, z] = [q[4 * id], q[4 * id + 1], q[4 * id + 2], q[4 * id + 3]];
        const yaw = Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
        return previous === null ? yaw : unwrap(previous, yaw);
      };
    }
    if (value.of === 'roll' || value.of === 'pitch') return orientationReader(copies, id, value.of);
    if (value.of in VELOCITY) return velocityReader(copies, id, value.of as keyof typeof VELOCITY);
    const k = 3 * id + AXIS[value.of as keyof typeof AXIS];
    return (i) => (copies.data[i].xpos as Float64Array)[k];
  }
  if ('site' in value) {
    const k = 3 * idOf(copies, 'mjOBJ_SITE', value.site, 'site') + AXIS[value.of];
    return (i) => (copies.data[i].site_xpos as Float64Array)[k];
  }
  const id = idOf(copies, 'mjOBJ_SENSOR', value.sensor, 'sensor');
  const size = (model.sensor_dim as Int32Array)[id];
  const index = value.index ?? 0;
  if (!(Number.isInteger(index) && index >= 0 && index < size)) throw new UnknownName(`sensor ${value.sensor} has ${size} values, not an index ${index}`);
  const at = (model.sensor_adr as Int32Array)[id] + index;
  return (i) => (copies.data[i].sensordata as Float64Array)[at];
}

/** Roll and pitch from the body's xquat (z-y-x Euler angles, as the heading's yaw). */
function orientationReader(copies: MujocoCopies, id: number, of: 'roll' | 'pitch'): StateReader {
  return (i) => {
    const q = copies.data[i].xquat as Float64Array;
    const [w, x, y, z] = [q[4 * id], q[4 * id + 1], q[4 * id + 2], q[4 * id + 3]];
    if (of === 'roll') return Math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
    return Math.asin(Math.min(1, Math.max(-1, 2 * (w * y - z * x))));
  };
}

/** Where each velocity sits in MuJoCo's spatial velocity [angular; linear]. */
const VELOCITY = { wx: 0, wy: 1, wz: 2, vx: 3, vy: 4, vz: 5 } as const;

/**
 * A body's velocity in the world frame, as `mj_objectVelocity(..., flg_local = 0)` computes it:
 * `cvel` is the spatial velocity about the subtree centre of mass of the body's root, so the linear
 * part moves to the body's origin: v - (xpos - com) × ω.
 */
function velocityReader(copies: MujocoCopies, id: number, of: keyof typeof VELOCITY): StateReader {
  const k = VELOCITY[of];
  const root = (copies.model.body_rootid as Int32Array)[id];
  return (i) => {
    const data = copies.data[i];
    const cvel = data.cvel as Float64Array;
    if (k < 3) return cvel[6 * id + k];
    const xpos = data.xpos as Float64Array;
    const com = data.subtree_com as Float64Array;
    const w = [cvel[6 * id], cvel[6 * id + 1], cvel[6 * id + 2]];
    const r = [xpos[3 * id] - com[3 * root], xpos[3 * id + 1] - com[3 * root + 1], xpos[3 * id + 2] - com[3 * root + 2]];
    const a = k - 3;
    const [b, c] = [(a + 1) % 3, (a + 2) % 3];
    // The a-th component of r × ω is r_b ω_c - r_c ω_b.
    return cvel[6 * id + k] - (r[b] * w[c] - r[c] * w[b]);
  };
}

/** The object's id in the model, or an error naming what the XML has. */
function idOf(copies: MujocoCopies, kind: 'mjOBJ_JOINT' | 'mjOBJ_BODY' | 'mjOBJ_SITE' | 'mjOBJ_SENSOR', name: string, what: string): number {
  const mj = mujoco();
  const id = mj.mj_name2id(copies.model, mj.mjtObj[kind].value, name);
  if (id < 0) throw new UnknownName(`the model has no ${what} named ${JSON.stringify(name)} (its ${what === 'body' ? 'bodies' : `${what}s`}: ${namesOf(copies, kind).join(', ') || 'none'})`);
  return id;
}

/** Every name of one kind of object in the model, in id order. */
export function namesOf(copies: MujocoCopies, kind: 'mjOBJ_JOINT' | 'mjOBJ_BODY' | 'mjOBJ_SITE' | 'mjOBJ_SENSOR' | 'mjOBJ_ACTUATOR'): string[] {
  const count = { mjOBJ_JOINT: copies.model.njnt, mjOBJ_BODY: copies.model.nbody, mjOBJ_SITE: copies.model.nsite, mjOBJ_SENSOR: copies.model.nsensor, mjOBJ_ACTUATOR: copies.model.nu }[kind];
  const named = { mjOBJ_JOINT: 'jnt', mjOBJ_BODY: 'body', mjOBJ_SITE: 'site', mjOBJ_SENSOR: 'sensor', mjOBJ_ACTUATOR: 'actuator' } as const;
  // Not mj_id2name: for an unnamed object (a Menagerie <freejoint/>) the bindings return stray memory (names.ts).
  return Array.from({ length: count }, (_, id) => objectName(copies.model, named[kind], id)).filter((n) => n !== '');
}

/** A value in words, for the prompt and errors: "body torso z", "joint rootx position". */
export function describeValue(value: StateValue): string {
  if ('joint' in value) return `joint ${value.joint} ${value.of ?? 'position'}${value.index === undefined ? '' : `[${value.index}]`}`;
  if ('body' in value) return `body ${value.body} ${value.of}`;
  if ('site' in value) return `site ${value.site} ${value.of}`;
  return `sensor ${value.sensor}${value.index === undefined ? '' : `[${value.index}]`}`;
}
