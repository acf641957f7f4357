/**
 * Go1-Walk-v0 (tasks/go1-walk): a Menagerie quadruped declared from its MJCF file. Its model is
 * Menagerie's but for the visual meshes, and leaving them out changes no physics; its actions move
 * the 12 servos about the standing keyframe within their ctrlranges; its success test (walk.ts,
 * fixed before any search) fails standing, falling, trotting in place or backwards and a written
 * trot that nearly does it, and passes a written trot that does; the card draws the legs; and
 * nothing outside the folder names the robot.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { Random } from '../core/random.ts';
import { loadMujoco, mujoco } from '../physics/mujoco/engine.ts';
import { MujocoCopies } from '../physics/mujoco/copies.ts';
import { readModelFolder, type ModelFiles } from '../physics/mujoco/model-files.ts';
import { playEpisode } from '../tasks/bank.ts';
import type { Episode, Task } from '../tasks/contract.ts';
import { GO1_GAITS, SLOW_TROT, TROT, trot, type Trot } from '../tasks/go1-walk/gaits.ts';
import { MujocoEnv } from '../tasks/mujoco-common/mujoco-env.ts';
import { prepareTask } from '../tasks/registry.ts';

const ROOT = resolve(import.meta.dirname, '..');
const FOLDER = join(ROOT, 'tasks', 'go1-walk');
/** The keyframe "home": the trunk at 0.27 m, each leg's abduction 0, hip 0.9, knee -1.8 (rad). */
const HOME_JOINTS = [0, 0.9, -1.8, 0, 0.9, -1.8, 0, 0.9, -1.8, 0, 0.9, -1.8];
const CTRLRANGE = { hip: [-0.863, 0.863], thigh: [-0.686, 4.501], calf: [-2.818, -0.888] } as const;

/** A closed box of half-sizes `half` as binary STL: a stand-in for a mesh file this machine cannot have. */
function boxStl(half: readonly number[]): Uint8Array {
  const corners = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]].map((v) => v.map((c, k) => c * half[k]));
  const faces = [[1, 3, 2], [1, 4, 3], [5, 6, 7], [5, 7, 8], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 4, 8], [3, 8, 7], [4, 1, 5], [4, 5, 8]];
  const bytes = Buffer.alloc(84 + 50 * faces.length);
  bytes.writeUInt32LE(faces.length, 80);
  faces.forEach((face, k) => face.forEach((v, c) => corners[v - 1].forEach((x, d) => bytes.writeFloatLE(x, 84 + 50 * k + 12 + 12 * c + 4 * d))));
  return bytes;
}

/** Menagerie's go1.xml as read (upstream/), beside our scene.xml, its five meshes stood in for by boxes of `half`. */
function upstreamWith(half: readonly number[]): ModelFiles {
  const ours = readModelFolder(join(FOLDER, 'model', 'scene.xml'));
  const files = new Map(ours.files);
  files.set('go1.xml', readFileSync(join(FOLDER, 'upstream', 'go1.xml')));
  for (const mesh of ['trunk', 'hip', 'thigh_mirror', 'calf', 'thigh']) files.set(`assets/${mesh}.stl`, boxStl(half));
  return { main: 'scene.xml', files };
}

/** What the physics is made of, and 300 steps of 0.02 s under random targets about the keyframe (the robot falls). */
function physicsOf(files: ModelFiles) {
  const copies = new MujocoCopies({ xml: '', files, copies: 1, frameSkip: 10, rnePostConstraint: false });
  try {
    const m = copies.model;
    const f64 = (a: unknown) => Array.from(a as Float64Array);
    const i32 = (a: unknown) => Array.from(a as Int32Array);
    // The geoms that can touch anything, in order: body, type, size, place, contact settings.
    const colliding = Array.from({ length: m.ngeom }, (_, g) => g).filter((g) => i32(m.geom_contype)[g] !== 0 || i32(m.geom_conaffinity)[g] !== 0);
    const geoms = colliding.map((g) => [
      i32(m.geom_bodyid)[g], i32(m.geom_type)[g], i32(m.geom_condim)[g], i32(m.geom_priority)[g], ...f64(m.geom_size).slice(3 * g, 3 * g + 3),
      ...f64(m.geom_pos).slice(3 * g, 3 * g + 3), ...f64(m.geom_quat).slice(4 * g, 4 * g + 4), ...f64(m.geom_friction).slice(3 * g, 3 * g + 3),
      ...f64(m.geom_solimp).slice(5 * g, 5 * g + 5), f64(m.geom_margin)[g],
    ]);
    const bodies = { mass: f64(m.body_mass), inertia: f64(m.body_inertia), ipos: f64(m.body_ipos), iquat: f64(m.body_iquat) };
    mujoco().mj_resetDataKeyframe(m, copies.data[0], 0);
    mujoco().mj_forward(m, copies.data[0]);
    const rng = new Random(48);
    const states = Array.from({ length: 300 }, () => {
      copies.doSimulation(0, HOME_JOINTS.map((q) => q + rng.uniform(-0.5, 0.5)));
      return [...copies.qpos(0), ...copies.qvel(0)];
    });
    return { ngeom: m.ngeom, bodies, geoms, states };
  } finally {
    copies.dispose();
  }
}

const asEpisode = (task: Task, e: ReturnType<typeof playEpisode>): Episode =>
  ({ observations: e.observations, obsSize: task.obsSize, recorded: e.recorded, recordSize: task.recordSize, length: e.length, return: e.return, terminated: e.terminated, truncated: e.truncated });

/** The episode with recorded entry k set by f(t, old value) at every step. */
function withRecorded(e: Episode, k: number, f: (t: number, old: number) => number): Episode {
  const recorded = Float64Array.from(e.recorded);
  for (let t = 0; t <= e.length; t++) recorded[t * e.recordSize + k] = f(t, recorded[t * e.recordSize + k]);
  return { ...e, recorded };
}

describe('Go1-Walk-v0: a Menagerie quadruped, declared', () => {
  let task: Task;
  const played = (act: (obs: Float32Array, t: number) => readonly number[], seed = 3): Episode => asEpisode(task, playEpisode(task, 'test', 'failure', act, seed));
  const trotting = (gait: Trot, seed = 3) => played((_obs, t) => trot(t, gait), seed);
  before(async () => {
    await loadMujoco();
    task = await prepareTask('Go1-Walk-v0');
  });

  it('leaves out only the visual meshes: Menagerie\'s go1.xml with stand-in meshes of two sizes has the same masses, inertias and colliding geoms, and moves the same to the last bit', () => {
    const ours = physicsOf(readModelFolder(join(FOLDER, 'model', 'scene.xml')));
    for (const half of [[0.1, 0.05, 0.03], [0.3, 0.2, 0.4]]) {
      const theirs = physicsOf(upstreamWith(half));
      assert.equal(theirs.ngeom - ours.ngeom, 13, 'their 13 visual geoms');
      assert.deepEqual(ours.bodies, theirs.bodies);
      assert.deepEqual(ours.geoms, theirs.geoms);
      assert.equal(ours.geoms.length, 43, 'the floor and the robot\'s 42 collision shapes: 8 on the trunk, 2 or 3 on each hip, 3 on each thigh, 2 capsules and a foot on each calf');
      assert.deepEqual(ours.states, theirs.states);
    }
    assert.ok(ours.states[299][2] < 0.2, 'the random targets knock it down: the trunk\'s contacts are exercised');
    const visual = /<default class="visual">\s*<geom type="mesh" contype="0" conaffinity="0" group="2"/;
    assert.match(readFileSync(join(FOLDER, 'upstream', 'go1.xml'), 'utf8'), visual, 'Menagerie\'s visual class collides with nothing');
  });

  it('drives the 12 position servos about the standing keyframe, ±0.5 rad, clipped to their ctrlranges', () => {
    const env = task.gymnasiumEnv(1, 0);
    assert.ok(env instanceof MujocoEnv);
    try {
      const copies = (env as unknown as { copies: MujocoCopies }).copies;
      const ctrl = () => Array.from(copies.data[0].ctrl as Float64Array).map((c) => Number(c.toFixed(6)));
      env.step(new Array(12).fill(0));
      assert.deepEqual(ctrl(), HOME_JOINTS);
      env.step(new Array(12).fill(1));
      assert.deepEqual(ctrl(), HOME_JOINTS.map((q) => Number((q + 0.5).toFixed(6))));
      // Past the box: the bare environment clips to the ctrlrange (the knee's upper end is -0.888).
      env.step(new Array(12).fill(3));
      const ranges = [CTRLRANGE.hip, CTRLRANGE.thigh, CTRLRANGE.calf];
      assert.deepEqual(ctrl(), HOME_JOINTS.map((q, k) => Math.min(ranges[k % 3][1], q + 1.5)));
    } finally {
      env.dispose?.();
    }
    assert.deepEqual(task.action.names.slice(0, 3), ['FR_hip (position)', 'FR_thigh (position)', 'FR_calf (position)']);
    assert.equal(task.observation.filter((o) => !o.hidden).length, 34, 'trunk height, tilt, heading, 6 velocities, 12 joint angles and 12 joint speeds');
    assert.match(task.environmentSource, /\| 1 \| FR_thigh \| 0\.9 \(its target at the starting pose\) \| 0\.5 \| -0\.686 to 4\.501 \|/);
  });

  it('stands to its 500-step limit with no action; random actions make it fall and end the episode', () => {
    const stand = played(() => new Array(12).fill(0));
    assert.equal(stand.length, 500);
    assert.equal(stand.terminated, false);
    assert.ok(Math.abs(task.progress.measure(stand)) < 0.1);
    const rng = new Random(5);
    const random = played(() => Array.from({ length: 12 }, () => rng.uniform(-1, 1)));
    assert.equal(random.terminated, true);
    assert.ok(random.length < 500, `random actions fell at step ${random.length}`);
  });

  it('fails standing, falling, trotting in place, trotting backwards and the slow trot (nearly: about 4.2 m); succeeds on the written trot; progress ranks them', () => {
    const stand = played(() => new Array(12).fill(0));
    const rng = new Random(5);
    const fall = played(() => Array.from({ length: 12 }, () => rng.uniform(-1, 1)));
    const inPlace = trotting({ ...TROT, stride: 0 });
    const backwards = trotting({ ...TROT, stride: -TROT.stride });
    const slow = trotting(SLOW_TROT);
    const walk = trotting(TROT);
    assert.ok(task.progress.measure(slow) > 3.8 && task.progress.measure(slow) < 5, `the slow trot: ${task.progress.measure(slow)} m`);
    for (const [words, e] of [['standing', stand], ['falling', fall], ['trotting in place', inPlace], ['trotting backwards', backwards], ['the slow trot', slow]] as const) {
      assert.equal(task.success.test(e), false, words);
    }
    assert.equal(task.success.test(walk), true, `the written trot: ${task.progress.measure(walk)} m`);
    const progress = [backwards, stand, inPlace, slow, walk].map((e) => task.progress.measure(e));
    assert.deepEqual([...progress].sort((a, b) => a - b), progress, `progress ranks them: ${progress.join(', ')}`);
    // The same walk, made to fail by its recorded state alone: a dip to the fall line, a tilt, a walk 1 cm short.
    assert.equal(task.success.test(withRecorded(walk, 2, (t, z) => (t === 250 ? 0.2 : z))), false, 'the trunk at 0.2 m for one step');
    assert.equal(task.success.test(withRecorded(walk, 4, (t, p) => (t === 400 ? 0.5 : p))), false, 'pitched 0.5 rad for one step');
    assert.equal(task.success.test(withRecorded(walk, 3, (t, r) => (t === 0 ? -0.5 : r))), false, 'rolled 0.5 rad at the reset');
    const x0 = walk.recorded[0];
    assert.equal(task.success.test(withRecorded(walk, 0, (t) => x0 + (4.99 * t) / walk.length)), false, '4.99 m');
    assert.equal(task.success.test(withRecorded(walk, 0, (t) => x0 + (5 * t) / walk.length)), true, '5 m');
    assert.equal(task.success.test({ ...slow, return: 1e6 }), false, 'no return makes a success');
  });

  it('keeps in its bank\'s written policies one success (the trot) and the ways to fail beside it', () => {
    assert.deepEqual(GO1_GAITS.map((p) => [p.name, p.kind]), [['trot', 'success'], ['slow-trot', 'failure'], ['trot-in-place', 'failure'], ['trot-backwards', 'failure']]);
    for (const seed of [7_001_000, 7_001_001]) assert.equal(task.success.test(trotting(TROT, seed)), true, `the trot from the bank's seed ${seed}`);
  });

  it('draws the quadruped on the card from its collision shapes (it has no visual geoms left), legs included', () => {
    const walk = playEpisode(task, 'test', 'success', (_obs, t) => trot(t, TROT), 3);
    const rows = (values: ArrayLike<number>, size: number) => Array.from({ length: walk.length + 1 }, (_, t) => Array.from(values).slice(size * t, size * (t + 1)));
    const record = {
      observations: rows(walk.observations, task.obsSize), recorded: rows(walk.recorded, task.recordSize),
      actions: rows(walk.actions, 12).slice(0, walk.length), rewards: [], success: true, terminated: false, truncated: true,
    };
    const svg = task.render.animation(record, '#2563eb');
    const titles = [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    for (const foot of ['FR', 'FL', 'RR', 'RL']) assert.ok(titles.includes(foot), `the ${foot} foot is drawn (${titles.join(', ')})`);
    const segments = [...svg.matchAll(/<line x1="[^"]+" y1="[^"]+" x2="[^"]+" y2="[^"]+" stroke="([^"]+)"/g)].filter((l) => l[1] !== '#475569' && l[1] !== '#94a3b8');
    assert.equal(segments.length, 42, 'every collision shape of the robot');
    assert.match(task.render.story(record), /^The quadruped stays up all 500 steps \(10 s\) and walks 5\.\d\d m along \+x/);
  });

  it('is named nowhere outside its folder: not in the code that runs searches', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return path === FOLDER ? [] : files(path);
      return /\.(ts|js|mjs|json)$/.test(name) ? [path] : [];
    });
    const code = ['bin', 'core', 'physics', 'tasks', 'functions', 'infra', 'local'].flatMap((dir) => files(join(ROOT, dir)));
    assert.ok(code.length > 100 && code.some((f) => f.endsWith('side-view.ts')));
    const naming = code.filter((f) => /go1|go-1|unitree/i.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    assert.deepEqual(naming, []);
  });
});
