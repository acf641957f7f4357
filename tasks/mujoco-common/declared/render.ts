/**
 * A declared robot on the card, when its folder draws nothing of its own: the side view of its own
 * geometry (render.ts beside this folder; meshes as their bounding boxes), the camera following its
 * root body, with plots of that body's height and x. Each step's pose is rebuilt from what the
 * episode kept: every qpos entry that an observation or recorded value reads (a joint's position,
 * a free body's x, y, z and its roll, pitch and heading), the starting pose for the rest. The root
 * body's place is MuJoCo's forward kinematics of that pose, not a qpos entry: a planar robot's root
 * moves by slide joints, a free one's by its free joint, and both show the body where it is.
 */
import { mujoco } from '../../../physics/mujoco/engine.ts';
import { compileModel, type ModelSource } from '../../../physics/mujoco/model-files.ts';
import type { CardRenderer, EpisodeRecord } from '../../contract.ts';
import { mujocoRenderer } from '../render.ts';
import type { StateValue } from '../state-values.ts';
import type { MujocoTaskDeclaration } from './declaration.ts';
import type { RobotModel } from './robot-model.ts';
import { rootBodyOf } from './root-body.ts';

/** Where a value of the episode is: observation k, or recorded entry k. */
type Where = { from: 'observations' | 'recorded'; k: number };

export function declaredRenderer(d: MujocoTaskDeclaration, robot: RobotModel): CardRenderer {
  const rebuild = poses(d, robot);
  const root = rootBody(robot);
  const name = root < 0 ? undefined : robot.bodies[root].name;
  // Each pose's root place, found once per episode for the animation, the plots and the story alike.
  const places = new WeakMap<number[], Float64Array>();
  const done = new WeakMap<EpisodeRecord, number[][]>();
  const qpos = (episode: EpisodeRecord): number[][] => {
    const known = done.get(episode);
    if (known !== undefined) return known;
    const qposes = rebuild(episode);
    if (root >= 0) bodyPlaces(robot.files, root, qposes).forEach((place, t) => places.set(qposes[t], place));
    done.set(episode, qposes);
    return qposes;
  };
  const at = (k: number) => (q: number[]) => places.get(q)?.[k] ?? 0;
  return mujocoRenderer({
    xml: () => robot.files,
    dt: robot.timestep * d.frameSkip,
    qpos,
    progress: { label: `metres along x (${name ?? 'fixed base'})`, of: at(0) },
    height: { label: `${name ?? 'base'} height (m)`, of: at(2) },
    noun: 'robot',
    timeLimitWords: 'runs to the time limit',
  });
}

/** The root body's index in the robot's facts (root-body.ts), -1 where it has none. */
function rootBody(robot: RobotModel): number {
  const index = (name: string) => robot.bodies.findIndex((b) => b.name === name);
  return rootBodyOf(robot.bodies.map((b) => index(b.parent)), robot.joints.map((j) => ({ body: index(j.body), free: j.type === 'free' })));
}

/** The body's world position (x, y, z) at each qpos: MuJoCo's forward kinematics, as the side view places its geoms. */
function bodyPlaces(source: ModelSource, body: number, qposes: number[][]): Float64Array[] {
  const mj = mujoco();
  const model = compileModel(source);
  try {
    const data = new mj.MjData(model);
    try {
      return qposes.map((q) => {
        (data.qpos as Float64Array).set(q);
        mj.mj_kinematics(model, data);
        return Float64Array.from((data.xpos as Float64Array).subarray(3 * body, 3 * body + 3));
      });
    } finally {
      data.delete();
    }
  } finally {
    model.delete();
  }
}

/** Each step's qpos, rebuilt from the values the episode kept (the starting pose for the rest). */
function poses(d: MujocoTaskDeclaration, robot: RobotModel): (episode: EpisodeRecord) => number[][] {
  const values: Array<{ value: StateValue; where: Where }> = [
    ...d.observation.map((o, k) => ({ value: o.value, where: { from: 'observations' as const, k } })),
    ...(d.recorded ?? []).map((r, k) => ({ value: r.value, where: { from: 'recorded' as const, k } })),
  ];
  const find = (match: (v: StateValue) => boolean): Where | undefined => values.find((v) => match(v.value))?.where;
  // Each qpos entry's source, where the episode has one.
  const sources: Array<Where | undefined> = Array.from({ length: robot.nq }, () => undefined);
  const turns: Array<{ at: number; roll: Where; pitch: Where; heading: Where }> = [];
  for (const j of robot.joints) {
    const size = { free: 7, ball: 4, slide: 1, hinge: 1 }[j.type];
    for (let i = 0; i < size; i++) {
      sources[j.qposadr + i] = find((v) => j.name !== '' && 'joint' in v && v.joint === j.name && (v.of ?? 'position') === 'position' && (v.index ?? 0) === i);
    }
    if (j.type !== 'free') continue;
    // A free body's place and turn, where the joint's own entries are not kept: its body's.
    (['x', 'y', 'z'] as const).forEach((axis, i) => {
      sources[j.qposadr + i] ??= find((v) => 'body' in v && v.body === j.body && v.of === axis);
    });
    const [roll, pitch, heading] = (['roll', 'pitch', 'heading'] as const).map((of) => find((v) => 'body' in v && v.body === j.body && v.of === of));
    if (sources[j.qposadr + 3] === undefined && roll && pitch && heading) turns.push({ at: j.qposadr + 3, roll, pitch, heading });
  }
  const read = (e: EpisodeRecord, w: Where, t: number): number => (w.from === 'observations' ? e.observations[t][w.k] : e.recorded?.[t]?.[w.k] ?? NaN);
  return (episode) => episode.observations.map((_, t) => {
    const q = Array.from(robot.startQpos);
    sources.forEach((w, i) => {
      const v = w === undefined ? NaN : read(episode, w, t);
      if (Number.isFinite(v)) q[i] = v;
    });
    for (const turn of turns) q.splice(turn.at, 4, ...quaternion(read(episode, turn.roll, t), read(episode, turn.pitch, t), read(episode, turn.heading, t)));
    return q;
  });
}

/** w, x, y, z of the z-y-x Euler angles (heading about z, then pitch about y, then roll about x). */
function quaternion(roll: number, pitch: number, heading: number): number[] {
  const [cr, sr, cp, sp, cy, sy] = [Math.cos(roll / 2), Math.sin(roll / 2), Math.cos(pitch / 2), Math.sin(pitch / 2), Math.cos(heading / 2), Math.sin(heading / 2)];
  return [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy];
}
