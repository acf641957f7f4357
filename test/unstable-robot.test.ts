/**
 * A declared robot whose simulation goes unstable: MuJoCo resets a state whose acceleration went
 * bad and steps on, so every result would read 0 without a word. The environment stops there with
 * the task's fault, naming MuJoCo's warning and the joint; a stable robot steps on as before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InvalidTask } from '../tasks/invalid-task.ts';
import { defineMujocoTask } from '../tasks/mujoco-common/declared/define.ts';
import type { MujocoTaskDeclaration } from '../tasks/mujoco-common/declared/declaration.ts';
import { declarationOf } from './support/declared-robots.ts';

/** A block on a rail pushed by a motor of the given gear, at the given timestep. */
function rail(gear: number, timestep: number): MujocoTaskDeclaration {
  const dir = mkdtempSync(join(tmpdir(), 'eureka-unstable-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'rail.xml'), `<mujoco model="rail">
  <option timestep="${timestep}"/>
  <worldbody>
    <body name="block"><joint name="slider" type="slide" axis="1 0 0"/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
  </worldbody>
  <actuator><motor name="push" joint="slider" ctrlrange="-1 1" gear="${gear}"/></actuator>
</mujoco>`);
  return declarationOf({
    id: 'Rail-v0', description: 'A block on a rail.', xml: join(dir, 'rail.xml'),
    observation: [{ value: { joint: 'slider' } }], actions: [{ actuator: 'push' }],
    frameSkip: 2, maxEpisodeSteps: 50, termination: 'none',
  });
}

/** Steps one copy at full push for `steps` steps. */
async function push(d: MujocoTaskDeclaration, steps: number): Promise<void> {
  const env = (await defineMujocoTask(d)).makeEnv(1, 0);
  try {
    for (let t = 0; t < steps; t++) env.step(Float32Array.of(1));
  } finally {
    env.dispose?.();
  }
}

describe('A declared robot whose simulation goes unstable', () => {
  it('stops with the task\'s fault, MuJoCo\'s warning and the joint, where MuJoCo would reset it and go on', async () => {
    await assert.rejects(push(rail(1e300, 0.05), 10), (error: Error) => {
      assert.ok(error instanceof InvalidTask, error.stack);
      assert.match(error.message, /^the robot's simulation went unstable at step \d+ of an episode \(MuJoCo: .*QACC.*; DOF 0 is joint slider\), and MuJoCo reset it: lower the timestep/);
      return true;
    });
  });

  it('steps on as before when it stays stable, episode after episode', async () => {
    await push(rail(1, 0.01), 120);
  });
});
