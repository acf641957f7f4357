/**
 * A declared robot's stored facts (tasks/mujoco-common/declared/robot-facts.ts): every built-in
 * declared task's file is what a compile of its XML reads now (else `npx tsx scripts/robot-facts.ts
 * ID`), the task made from it is the task made by compiling, and a file no longer true of the XML's
 * folder or of the declaration's names is ignored, never used.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defineMujocoTask } from '../tasks/mujoco-common/declared/define.ts';
import { exportedDeclaration } from '../tasks/mujoco-common/declared/exported-declaration.ts';
import { factsText, readFacts } from '../tasks/mujoco-common/declared/robot-facts.ts';
import { modelFilesOf, resolveRobot, xmlPath } from '../tasks/mujoco-common/declared/robot-model.ts';
import { prepareMujoco } from '../tasks/mujoco-common/mujoco-env.ts';
import { TASKS } from '../tasks/registry.ts';

await prepareMujoco();
const declared = (await Promise.all(TASKS.map(exportedDeclaration))).filter((d) => d !== undefined);
const scratch = mkdtempSync(join(tmpdir(), 'robot-facts-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('Stored robot facts', () => {
  it('some built-in task stores its facts', () => {
    assert.ok(declared.length > 0);
  });

  for (const d of declared) {
    it(`${d.id}: the stored file is what compiling its XML reads now, and the task it makes is the compiled one`, async () => {
      const path = xmlPath(d.facts, 'facts');
      const compiled = resolveRobot(d);
      assert.equal(readFileSync(path, 'utf8'), factsText(d, compiled), `stale: npx tsx scripts/robot-facts.ts ${d.id}`);
      const stored = readFacts(path, d, modelFilesOf(d));
      assert.ok(stored, 'the file is read');
      assert.deepEqual(stored, compiled);
      const [fromFacts, fromXml] = await Promise.all([defineMujocoTask(d), defineMujocoTask({ ...d, facts: undefined })]);
      for (const field of ['observation', 'action', 'environmentText', 'recorded'] as const) assert.deepEqual(fromFacts[field], fromXml[field], field);
      const [a, b] = [fromFacts.makeEnv(2, 7), fromXml.makeEnv(2, 7)];
      try {
        const actions = Float32Array.from({ length: 2 * fromXml.action.names.length }, (_, k) => Math.sin(k));
        assert.deepEqual(a.obs, b.obs);
        for (let t = 0; t < 20; t++) {
          a.step(actions);
          b.step(actions);
          assert.deepEqual([a.obs, a.record, a.reward], [b.obs, b.record, b.reward], `step ${t}`);
        }
      } finally {
        a.dispose?.();
        b.dispose?.();
      }
    });

    it(`${d.id}: a file no longer true of the XML's folder or the declaration's names is ignored`, () => {
      const folder = join(scratch, d.id);
      const model = join(folder, 'model');
      cpSync(join(xmlPath(d.xml), '..'), model, { recursive: true });
      const moved = { ...d, xml: join(model, 'scene.xml'), facts: join(folder, 'robot-facts.json') };
      writeFileSync(moved.facts, readFileSync(xmlPath(d.facts, 'facts')));
      assert.ok(readFacts(moved.facts, moved, modelFilesOf(moved)), 'the same files and names: read');
      // A renamed observation entry, another frame skip, one byte more in any file of the folder: not read.
      assert.equal(readFacts(moved.facts, { ...moved, frameSkip: moved.frameSkip + 1 }, modelFilesOf(moved)), undefined);
      assert.equal(readFacts(moved.facts, { ...moved, observation: moved.observation.slice(1) }, modelFilesOf(moved)), undefined);
      writeFileSync(join(model, 'scene.xml'), `${readFileSync(join(model, 'scene.xml'), 'utf8')}\n`);
      assert.equal(readFacts(moved.facts, moved, modelFilesOf(moved)), undefined);
      writeFileSync(moved.facts, '{ not json');
      assert.equal(readFacts(moved.facts, moved, modelFilesOf(moved)), undefined);
    });
  }
});
