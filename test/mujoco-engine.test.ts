/**
 * MuJoCo's engine room (physics/mujoco/): the official WebAssembly build loaded once, copies of a
 * model stepped apart, a copy's whole state saved and put back so that it goes on to the last bit,
 * every object freed once, and the side view the card draws. A failed load is tried again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClassHandle } from '@mujoco/mujoco';
import { loadMujoco, mujoco, type MjModel } from '../physics/mujoco/engine.ts';
import { MujocoCopies } from '../physics/mujoco/copies.ts';
import { sideView } from '../physics/mujoco/side-view.ts';
import { readTaskFile } from '../tasks/task-files.ts';

const HOPPER_XML = readTaskFile('hopper', 'hopper.xml');

function withCopies<T>(n: number, run: (copies: MujocoCopies) => T): T {
  const copies = new MujocoCopies({ xml: HOPPER_XML, copies: n, frameSkip: 4 });
  try {
    return run(copies);
  } finally {
    copies.dispose();
  }
}

describe('Engine: MuJoCo on WebAssembly', () => {
  // First in this file: nothing in its process may have loaded the engine before.
  it('tries a failed load again on the next call, rather than keeping its error for the life of the process', async () => {
    assert.throws(() => mujoco(), { name: 'MujocoNotLoaded' }, 'nothing loaded the engine before this test');
    // The runtime's WebAssembly (the project's TypeScript lib has no DOM types): its first
    // instantiation fails as a compile out of memory would.
    const api = (globalThis as unknown as { WebAssembly: { instantiate: (...args: unknown[]) => Promise<unknown> } }).WebAssembly;
    const instantiate = api.instantiate;
    let calls = 0;
    api.instantiate = async (...args) => {
      calls += 1;
      if (calls === 1) throw new RangeError('WebAssembly.instantiate(): Out of memory');
      return instantiate.apply(api, args);
    };
    try {
      await assert.rejects(loadMujoco(), /Out of memory/);
      const engine = await loadMujoco();
      assert.equal(engine.mj_versionString(), '3.14.0');
      assert.equal(mujoco(), engine);
      assert.equal(calls, 2);
    } finally {
      api.instantiate = instantiate;
    }
  });

  it('loads MuJoCo 3.14.0 once per process', async () => {
    const first = await loadMujoco();
    assert.equal(await loadMujoco(), first);
    assert.equal(mujoco(), first);
    assert.equal(first.mj_versionString(), '3.14.0');
  });

  it('builds copies from an XML string, with Gymnasium\'s init_qpos, and steps each apart', () => {
    withCopies(2, (copies) => {
      assert.deepEqual([copies.nq, copies.nv, copies.nu], [6, 6, 3]);
      assert.deepEqual([...copies.initQpos], [0, 1.25, 0, 0, 0, 0]);
      assert.equal(copies.dt, 0.008);
      copies.doSimulation(0, [1, -1, 0.5]);
      assert.notDeepEqual([...copies.qpos(0)], [...copies.qpos(1)], 'copy 0 moved');
      assert.deepEqual([...copies.qpos(1)], [0, 1.25, 0, 0, 0, 0], 'copy 1 did not');
    });
  });

  it('saves a copy\'s whole state (warm start included) and goes on from it to the last bit', () => {
    withCopies(1, (copies) => {
      for (let t = 0; t < 40; t++) copies.doSimulation(0, [Math.sin(t), Math.cos(t), 0.3]);
      const saved = new Float64Array(copies.stateSize);
      copies.saveState(0, saved);
      const go = () => {
        for (let t = 0; t < 60; t++) copies.doSimulation(0, [Math.cos(t), 0.2, Math.sin(t)]);
        return [...copies.qpos(0), ...copies.qvel(0)];
      };
      const straight = go();
      copies.resetData(0);
      copies.loadState(0, saved);
      assert.deepEqual(go(), straight);
      assert.throws(() => copies.loadState(0, new Float64Array(3)), /has \d+ values here, not 3/);
    });
  });

  it('frees every object once: dispose twice is harmless, and copies made and freed 600 times do not grow the engine\'s memory', () => {
    const copies = new MujocoCopies({ xml: HOPPER_XML, copies: 3, frameSkip: 4 });
    copies.dispose();
    copies.dispose();
    assert.equal(copies.data.length, 0);
    // One hopper MjData takes about 4 MB of the module's memory (capped at 2 GB): 600 leaked would not fit.
    const memory = () => withCopies(1, (c) => c.qpos(0).buffer.byteLength);
    const before = memory();
    for (let k = 0; k < 150; k++) withCopies(4, (c) => c.doSimulation(0, [0, 0, 0]));
    assert.ok(memory() <= before + 32 * 2 ** 20, `the memory grew from ${before} to ${memory()} bytes`);
  });

  it('frees every geom accessor the side view reads a name through', () => {
    // The bindings allocate an accessor on each model.geom(g) (300,000 unfreed grew the engine's memory by 3.5 MB).
    const prototype = mujoco().MjModel.prototype as MjModel;
    const geom = prototype.geom;
    const handed: ClassHandle[] = [];
    prototype.geom = function (this: MjModel, g: number | string) {
      const accessor = geom.call(this, g);
      handed.push(accessor);
      return accessor;
    };
    try {
      sideView(HOPPER_XML, [[0, 1.25, 0, 0, 0, 0]]);
    } finally {
      prototype.geom = geom;
    }
    assert.equal(handed.length, 4);
    assert.deepEqual(handed.map((accessor) => accessor.isDeleted()), [true, true, true, true]);
  });

  it('draws the hopper from the side: four capsules, stacked from the foot at the floor to the torso at 1.25 m', () => {
    const view = sideView(HOPPER_XML, [[0, 1.25, 0, 0, 0, 0], [2, 1.25, 0, 0, 0, 0]]);
    assert.deepEqual(view.geoms.map((g) => g.name), ['torso_geom', 'thigh_geom', 'leg_geom', 'foot_geom']);
    const [torso, , , foot] = [0, 1, 2, 3].map((k) => view.frames[0].subarray(4 * k, 4 * k + 4));
    assert.deepEqual([...torso].map((v) => Math.round(v * 100) / 100), [0, 1.05, 0, 1.45]);
    assert.ok(Math.abs(foot[1] - 0.1) < 1e-9 && Math.abs(foot[3] - 0.1) < 1e-9, 'the foot lies along x at 0.1 m');
    assert.ok(Math.abs(view.frames[1][0] - 2) < 1e-12, 'qpos[0] moves the hopper along x');
  });
});
