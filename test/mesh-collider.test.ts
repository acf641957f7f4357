/**
 * Meshes are real: a cube whose collision shape is a mesh this test writes (OBJ, text; STL,
 * binary), loaded through MuJoCo's virtual file system beside its XML, falls onto a floor from
 * tumbling starts and comes to rest as the box primitive of the same size does, and resets as it
 * does. MuJoCo collides the two with different code (a box against the plane, a convex mesh
 * against it; the mesh's vertices are float32); against another box, where the colliders differ
 * most, the cube still rests at the box's height, though it may land elsewhere.
 *
 * Tolerances, chosen on 6 drops (the first 6 of DROP_SEED's generator, OBJ and STL) and checked
 * on the next 6 (there: worst step 1.2e-8, rest 1.5e-9):
 * - each step of a fall on the floor, the mesh's qpos against the box's: worst 1.6e-8 over 3 s on
 *   the tuning drops, so 1e-6 (10x, rounded up to a power of ten);
 * - the height at rest, on the floor and on the table: worst 1.5e-9 (the vertices' float32
 *   rounding of 0.1), so 1e-7 (10x, rounded up). On the table the place it rests differs by up to
 *   6.4e-3 (its x, y and turn), so the test asks only that some drop parts there.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Random } from '../core/random.ts';
import { loadMujoco, mujoco } from '../physics/mujoco/engine.ts';
import { compileModel, type ModelFiles } from '../physics/mujoco/model-files.ts';
import { MujocoCopies } from '../physics/mujoco/copies.ts';

const HALF = 0.1;
const STEPS = 1500;
const STEP_TOLERANCE = 1e-6;
const REST_TOLERANCE = 1e-7;
const DROP_SEED = 46;

const VERTICES = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]].map((v) => v.map((c) => c * HALF));
/** Twelve triangles, counter-clockwise seen from outside, 1-based as OBJ counts. */
const FACES = [[1, 3, 2], [1, 4, 3], [5, 6, 7], [5, 7, 8], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 4, 8], [3, 8, 7], [4, 1, 5], [4, 5, 8]];

const obj = (): Uint8Array => new TextEncoder().encode(`${VERTICES.map((v) => `v ${v.join(' ')}`).join('\n')}\n${FACES.map((f) => `f ${f.join(' ')}`).join('\n')}\n`);

/** Binary STL: an 80-byte header, the triangle count, then per triangle a normal, three vertices and 2 bytes. */
function stl(): Uint8Array {
  const bytes = Buffer.alloc(84 + 50 * FACES.length);
  bytes.writeUInt32LE(FACES.length, 80);
  FACES.forEach((face, k) => face.forEach((v, c) => VERTICES[v - 1].forEach((x, d) => bytes.writeFloatLE(x, 84 + 50 * k + 12 + 12 * c + 4 * d))));
  return bytes;
}

type Shape = 'box' | 'obj' | 'stl';

/** The cube dropped from 0.4 m at `quat` onto the floor (a plane), or onto a box-shaped table. */
function model(shape: Shape, quat: readonly number[], ground: 'floor' | 'table'): ModelFiles {
  const geom = shape === 'box' ? `<geom type="box" size="${HALF} ${HALF} ${HALF}" mass="1"/>` : '<geom type="mesh" mesh="cube" mass="1"/>';
  const floor = ground === 'floor' ? '<geom type="plane" size="5 5 0.1"/>' : '<geom type="box" size="1 1 0.05" pos="0 0 -0.05"/>';
  const xml = `<mujoco><compiler meshdir="assets"/><option timestep="0.002"/>${shape === 'box' ? '' : `<asset><mesh name="cube" file="cube.${shape}"/></asset>`}` +
    `<worldbody>${floor}<body name="cube" pos="0 0 0.4" quat="${quat.join(' ')}"><freejoint name="root"/>${geom}</body></worldbody></mujoco>`;
  return { main: 'cube.xml', files: new Map([['cube.xml', new TextEncoder().encode(xml)], ['assets/cube.obj', obj()], ['assets/cube.stl', stl()]]) };
}

/** Every step's qpos of a 3 s fall, and the speed at its end. */
function fall(shape: Shape, quat: readonly number[], ground: 'floor' | 'table'): { qpos: Float64Array[]; speed: number } {
  const copies = new MujocoCopies({ xml: '', files: model(shape, quat, ground), copies: 1, frameSkip: 1 });
  try {
    copies.resetData(0);
    const qpos = Array.from({ length: STEPS }, () => {
      copies.doSimulation(0, []);
      return Float64Array.from(copies.qpos(0));
    });
    return { qpos, speed: Math.hypot(...copies.qvel(0)) };
  } finally {
    copies.dispose();
  }
}

/** Uniformly random orientations from DROP_SEED: the first 6 chose the tolerances, these are the next 6. */
function drops(): number[][] {
  const rng = new Random(DROP_SEED);
  const all = Array.from({ length: 12 }, () => {
    const q = [rng.normal(), rng.normal(), rng.normal(), rng.normal()];
    const n = Math.hypot(...q);
    return q.map((x) => x / n);
  });
  return all.slice(6);
}

const deviation = (a: ArrayLike<number>, b: ArrayLike<number>): number => Math.max(...Array.from(a, (x, k) => Math.abs(x - b[k])));

describe('Meshes: a cube of OBJ and of STL against the box primitive', () => {
  before(async () => {
    await loadMujoco();
  });

  for (const shape of ['obj', 'stl'] as const) {
    it(`loads the ${shape.toUpperCase()} cube through the virtual file system: 8 vertices, the box's bounding box`, () => {
      const m = compileModel(model(shape, [1, 0, 0, 0], 'floor'));
      try {
        assert.deepEqual([m.nmesh, (m.mesh_vertnum as Int32Array)[0], m.ngeom], [1, 8, 2]);
        // The mesh geom's bounding box (geom_aabb: centre, half sizes) is the box's, to float32.
        const aabb = Array.from((m.geom_aabb as Float64Array).subarray(6, 12));
        assert.ok(deviation(aabb, [0, 0, 0, HALF, HALF, HALF]) < 1e-8, aabb.join(' '));
        assert.equal((m.geom_type as Int32Array)[1], mujoco().mjtGeom.mjGEOM_MESH.value);
      } finally {
        m.delete();
      }
    });

    it(`drops the ${shape.toUpperCase()} cube onto the floor and it comes to rest as the box does, step by step`, () => {
      for (const quat of drops()) {
        const box = fall('box', quat, 'floor');
        const mesh = fall(shape, quat, 'floor');
        const worst = Math.max(...mesh.qpos.map((q, t) => deviation(q, box.qpos[t])));
        assert.ok(worst <= STEP_TOLERANCE, `drop ${quat.map((x) => x.toFixed(3)).join(' ')}: worst step ${worst}`);
        // At rest on a face: still, its centre HALF above the floor (less the contact's softness).
        const last = mesh.qpos[STEPS - 1];
        assert.ok(mesh.speed < 1e-6, `still moving at ${mesh.speed} m/s`);
        assert.ok(Math.abs(last[2] - HALF) < 2e-3, `rests at z ${last[2]}`);
        assert.ok(Math.abs(last[2] - box.qpos[STEPS - 1][2]) <= REST_TOLERANCE);
      }
    });
  }

  it('rests at the box\'s height on a box-shaped table too, where the colliders differ most (it may land elsewhere)', () => {
    let parted = 0;
    for (const quat of drops()) {
      const box = fall('box', quat, 'table');
      const mesh = fall('obj', quat, 'table');
      const [a, b] = [box.qpos[STEPS - 1], mesh.qpos[STEPS - 1]];
      assert.ok(Math.abs(a[2] - b[2]) <= REST_TOLERANCE, `rest heights ${a[2]} and ${b[2]}`);
      if (deviation(a, b) > STEP_TOLERANCE) parted += 1;
    }
    // Box against box and a convex mesh against a box are different code: their tumbles part.
    assert.ok(parted > 0, 'no drop parted: then this case would not show what it says');
  });

  it('resets as the box does: the same state after mj_resetData, and a copy saved mid-fall goes on to the last bit', () => {
    const quat = drops()[0];
    const [box, mesh] = [new MujocoCopies({ xml: '', files: model('box', quat, 'floor'), copies: 1, frameSkip: 50 }), new MujocoCopies({ xml: '', files: model('stl', quat, 'floor'), copies: 1, frameSkip: 50 })];
    try {
      for (const c of [box, mesh]) {
        c.resetData(0);
        c.doSimulation(0, []);
        c.resetData(0);
      }
      assert.deepEqual(Array.from(mesh.qpos(0)), Array.from(box.qpos(0)));
      assert.deepEqual(Array.from(mesh.qvel(0)), Array.from(box.qvel(0)));
      const saved = new Float64Array(mesh.stateSize);
      mesh.doSimulation(0, []);
      mesh.saveState(0, saved);
      mesh.doSimulation(0, []);
      const first = Array.from(mesh.qpos(0));
      mesh.loadState(0, saved);
      mesh.doSimulation(0, []);
      assert.deepEqual(Array.from(mesh.qpos(0)), first);
    } finally {
      box.dispose();
      mesh.dispose();
    }
  });
});
