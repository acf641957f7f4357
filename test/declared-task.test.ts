/**
 * A MuJoCo task declared from its MJCF file (tasks/mujoco-common/declared/): the crawler of
 * test/fixtures/declared/Crawler-v0 (a Menagerie-style folder: an include, an OBJ mesh, an unnamed
 * free joint). What the declaration says is what the environment does (actions about the keyframe
 * clipped to ctrlrange, keyframe resets with noise, healthy ranges or none, named values observed
 * and recorded), a wrong name is refused by field with the XML's names, the prompt reads the robot
 * from the XML, snapshots go on to the last bit, and the card draws the mesh.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import crawlerTask from './fixtures/declared/Crawler-v0/task.ts';
import { mujoco } from '../physics/mujoco/engine.ts';
import type { MujocoCopies } from '../physics/mujoco/copies.ts';
import type { TaskSpec, VecEnv } from '../tasks/contract.ts';
import { defineMujocoTask } from '../tasks/mujoco-common/declared/define.ts';
import type { MujocoTaskDeclaration } from '../tasks/mujoco-common/declared/declaration.ts';
import { declarationOf } from './support/declared-robots.ts';
import { MujocoEnv } from '../tasks/mujoco-common/mujoco-env.ts';
import { stateReader } from '../tasks/mujoco-common/state-values.ts';

const crawler = await crawlerTask;
const XML = new URL('../examples/models/crawler/scene.xml', import.meta.url);
/** The keyframe "home": chassis at z 0.2, upright, the hips at 0.2 and -0.2, ctrl 0.2 and -0.2. */
const HOME = [0, 0, 0.2, 1, 0, 0, 0, 0.2, -0.2];

/** The smallest declaration of the crawler, with `change` on top. */
function declaration(change: Partial<MujocoTaskDeclaration> = {}): MujocoTaskDeclaration {
  return declarationOf({
    id: 'Declared-v0', description: 'The crawler.', xml: XML,
    observation: [{ value: { joint: 'front_hip' } }], actions: [{ actuator: 'front_hip' }],
    frameSkip: 4, maxEpisodeSteps: 50,
    ...change,
  });
}

function using<T>(spec: TaskSpec, run: (env: MujocoEnv, copies: MujocoCopies) => T, seed = 0): T {
  const env = spec.makeEnv(1, seed);
  assert.ok(env instanceof MujocoEnv);
  try {
    return run(env, (env as unknown as { copies: MujocoCopies }).copies);
  } finally {
    env.dispose();
  }
}

const obsOf = (env: VecEnv): number[] => Array.from(env.obs);

/** A model folder whose XML names a mesh that is not in it. */
function brokenModel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eureka-declared-broken-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'robot.xml'), '<mujoco><compiler meshdir="assets"/><asset><mesh file="gone.obj"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="gone"/></body></worldbody></mujoco>');
  return join(dir, 'robot.xml');
}

describe('Declared robot: a task from its MJCF file', () => {
  it('names its observation and actions from the XML, with typical ranges from its joints, and hides what it says', () => {
    assert.deepEqual(crawler.observation.map((o) => o.name).slice(0, 7), [
      'body chassis x (m)', 'body chassis z (m)', 'body chassis roll (rad)', 'body chassis pitch (rad)', 'body chassis heading (rad)',
      'front hip angle (rad)', 'joint rear_hip position (rad)',
    ]);
    assert.deepEqual(crawler.observation[6].typical, [-1.2, 1.2], 'the hinge\'s range in the XML');
    assert.deepEqual(crawler.observation[7].typical, [-1, 1], 'the declared range');
    assert.deepEqual([crawler.observation[8].low, crawler.observation[8].high], [-10, 10], 'a clipped value\'s bounds');
    assert.deepEqual(crawler.observation.flatMap((o, k) => (o.hidden ? [k] : [])), [0]);
    assert.deepEqual(crawler.action, { kind: 'box', names: ['front_hip (position)', 'rear_hip (position)'], low: [-1, -1], high: [1, 1] });
    assert.equal(crawler.termination, 'failure');
  });

  it('gives the model a manual read from the XML: bodies, joints (the unnamed free one too), actuators, sensors, the action map', () => {
    const manual = crawler.environmentText ?? '';
    for (const line of [
      '| chassis | world | 2 |', '| (unnamed) | free | chassis | 0 | 0 | - |', '| front_hip | hinge | front_leg | 7 | 6 | -1.2 to 1.2 |',
      '| rear_hip | position | rear_hip | -1.2 to 1.2 | 1 |', 'Sensors: gyro (3).', 'one environment step is 0.02 s',
      '| 0 | front_hip | 0.2 (its target at the starting pose) | 0.5 | -1.2 to 1.2 |', '| 1 | rear_hip | 0 | 1.2 | -1.2 to 1.2 |',
      'The keyframe "home"', 'body chassis z above 0.05', 'Truncation: 250 steps',
    ]) assert.ok(manual.includes(line), `the manual says ${line}`);
  });

  it('names an unnamed body "body N" in the manual, as its children name their parent, not "world"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eureka-declared-unnamed-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'robot.xml'), `<mujoco><worldbody><body pos="0 0 0.5"><geom type="box" size="0.1 0.1 0.1"/>
      <body name="arm"><joint name="swing" type="hinge" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02"/></body>
    </body></worldbody><actuator><motor name="swing" joint="swing" ctrlrange="-1 1"/></actuator></mujoco>`);
    const spec = await defineMujocoTask(declaration({ xml: join(dir, 'robot.xml'), observation: [{ value: { joint: 'swing' } }], actions: [{ actuator: 'swing' }], reset: undefined, termination: 'none', recorded: [] }));
    const manual = spec.environmentText ?? '';
    for (const line of ['| body 1 | world |', '| arm | body 1 |']) assert.ok(manual.includes(line), `the manual says ${line}:\n${manual}`);
  });

  it('drives each actuator at offset + scale × action, clipped to its ctrlrange (a position servo about its keyframe target)', () => {
    using(crawler, (env, copies) => {
      const ctrl = () => Array.from(copies.data[0].ctrl as Float64Array).map((c) => Number(c.toFixed(6)));
      env.step([0, 0]);
      assert.deepEqual(ctrl(), [0.2, 0]);
      env.step([1, 1]);
      assert.deepEqual(ctrl(), [0.7, 1.2]);
      env.step([-1, -0.5]);
      assert.deepEqual(ctrl(), [-0.3, -0.6]);
      // Past the action box (the registry clips to it first; the bare environment clips to ctrlrange).
      env.step([3, -3]);
      assert.deepEqual(ctrl(), [1.2, -1.2]);
      assert.deepEqual(Array.from(env.applied), [3, -3], 'the reward sees the action, not the ctrl');
    });
  });

  it('resets to the keyframe, with the declared noise on every qpos and qvel entry, or to qpos0', async () => {
    const still = await defineMujocoTask(declaration({ reset: { keyframe: 'home' } }));
    using(still, (env) => assert.deepEqual(Array.from(env.qpos(0)), HOME));
    using(crawler, (env) => {
      const off = Array.from(env.qpos(0), (q, k) => Math.abs(q - HOME[k]));
      assert.ok(Math.max(...off) <= 0.01 && Math.max(...off) > 0, `noise ${Math.max(...off)}`);
      assert.ok(Math.max(...Array.from(env.qvel(0), Math.abs)) <= 0.01);
    });
    const zero = await defineMujocoTask(declaration());
    using(zero, (env) => assert.deepEqual(Array.from(env.qpos(0)), [0, 0, 0.2, 1, 0, 0, 0, 0, 0]));
  });

  it('ends an episode when a healthy range is left, and only at the time limit with termination none', async () => {
    const high = await defineMujocoTask(declaration({ termination: { healthy: [{ value: { body: 'chassis', of: 'z' }, min: 0.5 }] } }));
    using(high, (env) => {
      env.step([0]);
      assert.deepEqual([env.terminated[0], env.truncated[0], env.elapsed[0]], [1, 0, 0], 'ended, and reset');
    });
    const none = await defineMujocoTask(declaration({ termination: 'none', maxEpisodeSteps: 20 }));
    using(none, (env) => {
      for (let t = 0; t < 19; t++) env.step([t % 2 === 0 ? 1 : -1]);
      assert.equal(env.terminated[0] + env.truncated[0], 0);
      env.step([0]);
      assert.deepEqual([env.terminated[0], env.truncated[0]], [0, 1]);
    });
  });

  it('observes each value as the vocabulary reads it: roll, pitch, heading from xquat, velocities as mj_objectVelocity, clipped where said', () => {
    using(crawler, (env, copies) => {
      for (let t = 0; t < 30; t++) env.step([Math.sin(t), Math.cos(t)]);
      const mj = mujoco();
      const data = copies.data[0];
      const buffer = new mj.DoubleBuffer(6);
      try {
        mj.mj_objectVelocity(copies.model, data, mj.mjtObj.mjOBJ_BODY.value, 1, buffer, 0);
        const [wx, wy, wz, vx, vy, vz] = Array.from(buffer.GetView() as Float64Array);
        const read = (of: 'vx' | 'vy' | 'vz' | 'wx' | 'wy' | 'wz') => stateReader(copies, { body: 'chassis', of })(0, null);
        for (const [of, expected] of [['vx', vx], ['vy', vy], ['vz', vz], ['wx', wx], ['wy', wy], ['wz', wz]] as const) {
          assert.ok(Math.abs(read(of) - expected) < 1e-12, `${of}: ${read(of)} against ${expected}`);
        }
        assert.equal(env.obs[7], Math.fround(vx), 'observation 7 is the chassis\'s vx');
      } finally {
        buffer.delete();
      }
      // The z-y-x Euler angles put back together are the body's rotation.
      const [w, x, y, z] = Array.from((data.xquat as Float64Array).subarray(4, 8));
      const [roll, pitch, heading] = [env.obs[2], env.obs[3], env.obs[4]];
      const rebuilt = [Math.cos(roll / 2) * Math.cos(pitch / 2) * Math.cos(heading / 2) + Math.sin(roll / 2) * Math.sin(pitch / 2) * Math.sin(heading / 2)];
      assert.ok(Math.abs(Math.abs(rebuilt[0]) - Math.abs(w)) < 1e-5, `w ${rebuilt[0]} against ${w} (x ${x}, y ${y}, z ${z})`);
      assert.ok(Math.abs(env.obs[8]) <= 10 && Math.abs(env.obs[9]) <= 10, 'velocities clipped to ±10');
    });
  });

  it('goes on to the last bit from a snapshot, as a seed-run trained in chunks must', () => {
    const actions = Array.from({ length: 120 }, (_, t) => [Math.sin(0.3 * t), Math.cos(0.2 * t)]);
    const whole = using(crawler, (env) => actions.map((a) => (env.step(a), obsOf(env))));
    const chunked = using(crawler, (first) => {
      const head = actions.slice(0, 60).map((a) => (first.step(a), obsOf(first)));
      const snapshot = first.snapshot();
      return using(crawler, (second) => {
        second.restore(snapshot);
        return [...head, ...actions.slice(60).map((a) => (second.step(a), obsOf(second)))];
      }, 99);
    });
    assert.deepEqual(chunked, whole);
  });

  it('trains a seed-run in chunks (one update each, resumed from its checkpoint) to the same end as one trained whole', async () => {
    // The registry's task (Box actions clipped first, as training sees them), from the fixture's folder.
    process.env.EUREKA_TASK_PATH = fileURLToPath(new URL('./fixtures/declared/', import.meta.url));
    const { getTask } = await import('../tasks/registry.ts');
    const { runSeed, runSeedChunk } = await import('../functions/train-seed/seed-run.ts');
    const task = getTask('Crawler-v0');
    const input = { task, candidateId: 'human', source: task.baselines.human.code, seed: 3, budget: { steps: 2 * 2048, evalEpisodes: 1 } };
    const whole = await runSeed(input);
    let out = await runSeedChunk({ ...input, chunkSteps: 2048 });
    let chunks = 1;
    while (!out.done) {
      out = await runSeedChunk({ ...input, chunkSteps: 2048, resume: out.checkpoint });
      chunks += 1;
    }
    assert.equal(chunks, 2);
    assert.match(whole.result.thetaSha256 ?? '', /^[0-9a-f]{64}$/);
    assert.equal(out.result.thetaSha256, whole.result.thetaSha256);
    assert.deepEqual(out.result.curve, whole.result.curve);
    assert.equal(out.result.progress, whole.result.progress);
  });

  const refusals: Array<[string, Partial<MujocoTaskDeclaration>, RegExp]> = [
    ['a joint the XML has not', { observation: [{ value: { joint: 'knee' } }] }, /^observation\.0\.value: the model has no joint named "knee" \(its joints: front_hip, rear_hip\)/],
    ['an actuator the XML has not', { actions: [{ actuator: 'knee' }] }, /^actions\.0\.actuator: the model has no actuator named "knee" \(its actuators: front_hip, rear_hip\)/],
    ['a keyframe the XML has not', { reset: { keyframe: 'stand' } }, /^reset\.keyframe: the model has no keyframe named "stand" \(its keyframes: home\)/],
    ['a recorded body the XML has not', { recorded: [{ name: 'x', value: { body: 'torso', of: 'x' } }] }, /^recorded\.0\.value: the model has no body named "torso"/],
    ['a path relative to wherever eureka runs', { xml: 'model/scene.xml' }, /^xml: "model\/scene\.xml" is relative to wherever eureka runs: write new URL\('\.\/model\/scene\.xml', import\.meta\.url\)/],
    ['an XML that is not there', { xml: new URL('../examples/models/crawler/nope.xml', import.meta.url) }, /^xml: no file .*examples\/models\/crawler\/nope\.xml$/],
    ['an XML MuJoCo does not compile (a mesh file missing beside it)', { xml: brokenModel() }, /^xml: MuJoCo does not compile .*robot\.xml: <mesh> file "gone\.obj" resolves to .*\/assets\/gone\.obj \(meshdir "assets"\), which does not exist$/],
    ['a frame skip of 0', { frameSkip: 0 }, /^frameSkip: /],
    ['an unknown field', { frameskip: 4 } as Partial<MujocoTaskDeclaration>, /Unrecognized key: "frameskip"/],
  ];
  for (const [what, change, message] of refusals) {
    it(`refuses ${what}, naming the field`, async () => {
      await assert.rejects(defineMujocoTask(declaration(change)), (error: Error) => {
        assert.equal(error.name, 'InvalidDeclaration');
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it('draws the robot on the card from its own geometry: the chassis\'s mesh (its visual one; the collision mesh is group 3) and the legs', () => {
    const episode = using(crawler, (env) => {
      const observations = [obsOf(env)];
      const recorded = [Array.from(env.record)];
      for (let t = 0; t < 40; t++) {
        env.step([1, -1]);
        observations.push(obsOf(env));
        recorded.push(Array.from(env.record));
      }
      return { observations, recorded, actions: observations.slice(1).map(() => [1, -1]), rewards: observations.slice(1).map(() => 0), success: false, terminated: false, truncated: false };
    });
    const svg = crawler.render.animation(episode, '#2563eb');
    const lines = [...svg.matchAll(/<line x1="[^"]+" y1="[^"]+" x2="[^"]+" y2="[^"]+" stroke="([^"]+)" stroke-width="([^"]+)"/g)];
    const bodies = lines.filter((l) => l[1] !== '#475569' && l[1] !== '#94a3b8');
    assert.equal(bodies.length, 3, 'the chassis\'s mesh and two legs');
    // The mesh, seen from the side: as thick as the chassis is tall (0.08 m), at 150 px a metre.
    assert.equal(Number(bodies[0][2]), 13.1);
    assert.match(svg, /<title>front_foot<\/title>/);
    assert.ok(crawler.render.story(episode).startsWith('The robot runs to the time limit, 40 steps'));
  });
});
