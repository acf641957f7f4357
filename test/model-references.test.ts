/**
 * A model's files are found where MuJoCo's own rules put them (physics/mujoco/model-references.ts),
 * whatever the folder layout: a meshdir above the XML's folder ("../meshes") or absolute, an include
 * in a subfolder, a texturedir; a file not there is refused with the path MuJoCo would open, even
 * when the folder holds a file of that base name (which MuJoCo's virtual file system would otherwise
 * settle for); two files of one base name stay two; a commented-out element names nothing. Where a
 * rule could be mistaken for another, a decoy of the same base name sits where the other rule would
 * look, so that the compiled model shows which file MuJoCo read. `eureka new-task --xml` copies what
 * lies outside the XML's folder in its layout, and the task folder it writes loads as it stands;
 * with --in-place the model loads from where it is.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { loadMujoco } from '../physics/mujoco/engine.ts';
import { compileModel, ModelFileMissing, readModelFolder, type ModelFiles } from '../physics/mujoco/model-files.ts';
import { modelReferences } from '../physics/mujoco/model-references.ts';
import { eureka } from './support/eureka-cli.ts';

/** A tetrahedron of edge `size` as binary STL (an 80-byte header, the count, per triangle a normal, 3 vertices, 2 bytes). */
function tetrahedron(size: number): Uint8Array {
  const corners = [[0, 0, 0], [size, 0, 0], [0, size, 0], [0, 0, size]];
  const faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
  const bytes = Buffer.alloc(84 + 50 * faces.length);
  bytes.writeUInt32LE(faces.length, 80);
  faces.forEach((face, k) => face.forEach((v, c) => corners[v].forEach((x, d) => bytes.writeFloatLE(x, 84 + 50 * k + 12 + 12 * c + 4 * d))));
  return bytes;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A grey RGB PNG `width` pixels wide and 2 high: the smallest texture MuJoCo reads. */
function png(width: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(2 * (1 + 3 * width), 128);
  rows[0] = rows[1 + 3 * width] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** A robot: a base on a free joint, its geom the mesh `mesh`, and an arm on a driven hinge; `head` goes in the XML first, `assets` in <asset>. */
function robotXml(head: string, assets: string, mesh = 'body'): string {
  return `<mujoco model="robot">${head}<asset>${assets}</asset><worldbody><geom type="plane" size="0 0 0.05"/>` +
    `<body name="base" pos="0 0 0.3"><freejoint/><geom type="mesh" mesh="${mesh}" mass="1"/>` +
    '<body name="arm"><joint name="hinge" type="hinge" axis="0 1 0" range="-1 1"/><geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.1"/></body></body>' +
    '</worldbody><actuator><motor name="drive" joint="hinge" ctrlrange="-1 1"/></actuator></mujoco>';
}

/** Writes `files` (relative path: text or bytes) under `dir`. */
async function lay(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
}

const readText = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/** Compiles the files and hands the model to `look` (freed after). */
function compiled<T>(files: ModelFiles, look: (model: ReturnType<typeof compileModel>) => T): T {
  const model = compileModel(files);
  try {
    return look(model);
  } finally {
    model.delete();
  }
}

/** Each mesh geom's bounding radius: a tetrahedron of twice the edge has twice the radius. */
const meshRadii = (files: ModelFiles): number[] =>
  compiled(files, (m) => Array.from({ length: m.ngeom }, (_, g) => g).filter((g) => (m.geom_type as Int32Array)[g] === 7).map((g) => (m.geom_rbound as Float64Array)[g]));

describe('Model files: found where MuJoCo looks', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'eureka-model-references-'));
    await loadMujoco();
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('follows a meshdir above the XML\'s folder: the files go in by their place around it', async () => {
    const dir = join(root, 'updir');
    await lay(dir, { 'mjcf/robot.xml': robotXml('<compiler meshdir="../meshes"/>', '<mesh name="body" file="body.stl"/>'), 'meshes/body.stl': tetrahedron(0.1) });
    const files = readModelFolder(join(dir, 'mjcf', 'robot.xml'));
    assert.equal(files.main, 'mjcf/robot.xml');
    assert.equal(files.folder, dir);
    assert.deepEqual([...files.files.keys()].sort(), ['meshes/body.stl', 'mjcf/robot.xml']);
    assert.equal(meshRadii(files).length, 1);
  });

  it('follows an absolute meshdir, reading the files where it points', async () => {
    const meshes = join(root, 'elsewhere', 'meshes');
    await lay(meshes, { 'body.stl': tetrahedron(0.1) });
    const dir = join(root, 'absdir');
    await lay(dir, { 'robot.xml': robotXml(`<compiler meshdir="${meshes}"/>`, '<mesh name="body" file="body.stl"/>') });
    const files = readModelFolder(join(dir, 'robot.xml'));
    assert.equal(files.main, 'robot.xml');
    assert.deepEqual([...files.files.keys()].sort(), [join(meshes, 'body.stl'), 'robot.xml']);
    assert.equal(meshRadii(files).length, 1);
  });

  it('refuses a mesh that is not where MuJoCo opens it, naming the path it tried, though a file of that name is in the folder', async () => {
    const dir = join(root, 'wrongdir');
    await lay(dir, { 'robot.xml': robotXml('', '<mesh name="body" file="body.stl"/>'), 'meshes/body.stl': tetrahedron(0.1) });
    assert.throws(() => readModelFolder(join(dir, 'robot.xml')), (error: Error) => {
      assert.ok(error instanceof ModelFileMissing, String(error));
      assert.equal(error.message, `<mesh name="body"> file "body.stl" resolves to ${join(dir, 'body.stl')} (no meshdir), which does not exist (the XML's folder has meshes/body.stl)`);
      return true;
    });
  });

  it('reads an include in a subfolder relative to the main file\'s folder, and its mesh through the main file\'s meshdir', async () => {
    const dir = join(root, 'include');
    const part = '<mujoco><asset><mesh name="body" file="body.stl"/></asset></mujoco>';
    await lay(dir, { 'robot.xml': robotXml('<compiler meshdir="meshes"/><include file="parts/assets.xml"/>', ''), 'parts/assets.xml': part, 'meshes/body.stl': tetrahedron(0.1) });
    const references = modelReferences(join(dir, 'robot.xml'), readText);
    assert.deepEqual(references.map((r) => [r.element, r.opened, relative(dir, r.writtenIn)]), [['include', 'parts/assets.xml', 'robot.xml'], ['mesh', 'meshes/body.stl', 'parts/assets.xml']]);
    assert.equal(meshRadii(readModelFolder(join(dir, 'robot.xml'))).length, 1);
  });

  it('ignores a commented-out element and reads attributes in either quote style', async () => {
    const dir = join(root, 'comments');
    const assets = '<!-- <mesh name="old" file="gone.stl"/>\n <include file="gone.xml"/> --><mesh name=\'body\' file=\'body.stl\'/>';
    await lay(dir, { 'robot.xml': robotXml('<compiler meshdir=\'meshes\'/>', assets), 'meshes/body.stl': tetrahedron(0.1) });
    const references = modelReferences(join(dir, 'robot.xml'), readText);
    assert.deepEqual(references.map((r) => [r.element, r.name, r.opened]), [['mesh', 'body', 'meshes/body.stl']]);
    assert.equal(meshRadii(readModelFolder(join(dir, 'robot.xml'))).length, 1);
  });

  it('keeps two meshes of one base name apart, one inside the XML\'s folder and one above it', async () => {
    const dir = join(root, 'samename');
    const assets = '<mesh name="small" file="pad.stl"/><mesh name="big" file="../../meshes/pad.stl"/>';
    const xml = robotXml('<compiler meshdir="meshes"/>', assets, 'small').replace('</body></body>', '</body><geom type="mesh" mesh="big" mass="1" pos="1 0 0"/></body>');
    await lay(dir, { 'mjcf/robot.xml': xml, 'mjcf/meshes/pad.stl': tetrahedron(0.1), 'meshes/pad.stl': tetrahedron(0.2) });
    const files = readModelFolder(join(dir, 'mjcf', 'robot.xml'));
    assert.deepEqual([...files.files.keys()].sort(), ['meshes/pad.stl', 'mjcf/meshes/pad.stl', 'mjcf/robot.xml']);
    const [small, big] = meshRadii(files);
    assert.ok(Math.abs(big / small - 2) < 1e-6, `radii ${small}, ${big}`);
  });

  it('finds a texture through texturedir, and a height field through meshdir (as MuJoCo\'s compiler does), past decoys of the same names', async () => {
    const dir = join(root, 'texture');
    // MuJoCo's own height field format: rows and columns (int32), then the heights (float32).
    const hfield = (rows: number) => Buffer.concat([Buffer.from(new Int32Array([rows, 2]).buffer), Buffer.from(new Float32Array(2 * rows).buffer)]);
    const assets = '<texture name="grid" type="2d" file="grid.png"/><material name="grid" texture="grid"/><hfield name="ground" file="ground.bin" size="1 1 0.1 0.1"/><mesh name="body" file="body.stl"/>';
    const xml = robotXml('<compiler meshdir="meshes" texturedir="textures"/>', assets).replace('<geom type="plane" size="0 0 0.05"/>', '<geom type="plane" size="0 0 0.05" material="grid"/><geom type="hfield" hfield="ground"/>');
    await lay(dir, { 'robot.xml': xml, 'textures/grid.png': png(4), 'meshes/grid.png': png(8), 'meshes/body.stl': tetrahedron(0.1), 'meshes/ground.bin': hfield(3), 'textures/ground.bin': hfield(5) });
    assert.deepEqual(modelReferences(join(dir, 'robot.xml'), readText).map((r) => [r.element, r.opened]), [['texture', 'textures/grid.png'], ['hfield', 'meshes/ground.bin'], ['mesh', 'meshes/body.stl']]);
    const seen = compiled(readModelFolder(join(dir, 'robot.xml')), (m) => ({ width: (m.tex_width as Int32Array)[0], rows: (m.hfield_nrow as Int32Array)[0] }));
    assert.deepEqual(seen, { width: 4, rows: 3 });
  });
});

describe('CLI: eureka new-task --xml with files beside the XML\'s folder', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'eureka-model-references-cli-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('copies them into model/ in their layout, and the task folder loads as it stands; --in-place loads from where it is', async () => {
    const models = join(root, 'models');
    await lay(models, { 'mjcf/robot.xml': robotXml('<compiler meshdir="../meshes"/>', '<mesh name="body" file="body.stl"/>'), 'meshes/body.stl': tetrahedron(0.1), 'meshes/unused.stl': tetrahedron(0.3) });
    const taskPath = join(root, 'tasks');
    const xml = join(models, 'mjcf', 'robot.xml');
    for (const args of [['Outside-v0'], ['OutsideInPlace-v0', '--in-place']]) {
      const made = await eureka(['new-task', ...args, '--xml', xml, '--dir', taskPath]);
      assert.equal(made.code, 0, made.stderr);
    }
    const copied = (await readdir(join(taskPath, 'Outside-v0', 'model'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => relative(join(taskPath, 'Outside-v0', 'model'), join(e.parentPath, e.name))).sort();
    assert.deepEqual(copied, ['meshes/body.stl', 'mjcf/robot.xml']);
    const listed = await eureka(['tasks', '--json'], { EUREKA_TASK_PATH: taskPath });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stderr.includes('skipped task folder'), false, listed.stderr);
    const ids = (JSON.parse(listed.stdout) as { tasks: Array<{ id: string }> }).tasks.map((t) => t.id);
    assert.ok(ids.includes('Outside-v0') && ids.includes('OutsideInPlace-v0'), ids.join(', '));
  });

  it('refuses (exit 2) a mesh MuJoCo would not find, with the path it would open', async () => {
    const models = join(root, 'wrong');
    await lay(models, { 'robot.xml': robotXml('', '<mesh name="body" file="body.stl"/>'), 'meshes/body.stl': tetrahedron(0.1) });
    const ran = await eureka(['new-task', 'Wrong-v0', '--xml', join(models, 'robot.xml'), '--dir', join(root, 'wrong-tasks')]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.ok(ran.stderr.includes(`file "body.stl" resolves to ${join(models, 'body.stl')} (no meshdir), which does not exist`), ran.stderr);
  });
});
