/**
 * Writes a declared robot's stored facts (tasks/mujoco-common/declared/robot-facts.ts): the task's
 * `task.ts` exports its `declaration`, whose `facts` says where; the XML is compiled and read now.
 * Run it after changing the robot's XML or the names its declaration uses.
 *
 *   npx tsx scripts/robot-facts.ts Go1-Walk-v0 [ID ...]
 */
import { exportedDeclaration } from '../tasks/mujoco-common/declared/exported-declaration.ts';
import { writeFacts } from '../tasks/mujoco-common/declared/robot-facts.ts';
import { resolveRobot, xmlPath } from '../tasks/mujoco-common/declared/robot-model.ts';
import { prepareMujoco } from '../tasks/mujoco-common/mujoco-env.ts';
import { getTask } from '../tasks/registry.ts';

await prepareMujoco();
for (const id of process.argv.slice(2)) {
  const d = await exportedDeclaration(getTask(id));
  if (d === undefined) throw new Error(`${id}: its task.ts exports no declaration naming a facts file (export const declaration = { ..., facts: new URL('./robot-facts.json', import.meta.url) })`);
  const path = xmlPath(d.facts, 'facts');
  writeFacts(path, d, resolveRobot(d));
  process.stdout.write(`${id}: ${path}\n`);
}
