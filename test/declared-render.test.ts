/**
 * The card a declared robot gets when its folder draws nothing of its own (declared/render.ts): the
 * distance along x and the height it plots and tells are its root body's, placed by MuJoCo's
 * kinematics, for a planar root (slide joints along x and z, a hinge) as for a free one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { EpisodeRecord } from '../tasks/contract.ts';
import { defineMujocoTask } from '../tasks/mujoco-common/declared/define.ts';
import type { MujocoTaskDeclaration } from '../tasks/mujoco-common/declared/declaration.ts';
import { declarationOf, planarXml } from './support/declared-robots.ts';

function planarDeclaration(): MujocoTaskDeclaration {
  const dir = mkdtempSync(join(tmpdir(), 'eureka-declared-render-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'robot.xml'), planarXml('<actuator><motor name="knee" joint="knee" ctrlrange="-1 1"/></actuator>'));
  return declarationOf({
    id: 'Planar-v0', description: 'A planar robot.', xml: join(dir, 'robot.xml'),
    observation: [{ value: { joint: 'slide_x' }, hidden: true }, { value: { joint: 'slide_z' } }, { value: { joint: 'turn' } }, { value: { joint: 'knee' } }],
    actions: [{ actuator: 'knee' }],
    frameSkip: 4, maxEpisodeSteps: 50,
  });
}

/** An episode of `steps` steps whose slide-x observation goes from 0 to `forward`, slide-z from 0 to `up`, turned as it goes. */
function episode(steps: number, forward: number, up: number): EpisodeRecord {
  const observations = Array.from({ length: steps + 1 }, (_, t) => [forward * t / steps, up * t / steps, 0.3 * t / steps, 0]);
  return { observations, actions: observations.slice(1).map(() => [0]), rewards: observations.slice(1).map(() => 0), success: false, terminated: false, truncated: false };
}

/** The y coordinates of a chart's series path (its d attribute's points). */
function seriesYs(svg: string): number[] {
  const d = /<path class="series" d="([^"]+)"/.exec(svg)?.[1] ?? '';
  return [...d.matchAll(/[ML]([-\d.]+) ([-\d.]+)/g)].map((m) => Number(m[2]));
}

describe('Declared robot on the card: its root body, placed by MuJoCo', () => {
  it('tells and plots a planar root\'s distance along x and its height from its slide joints, labelled by its body', async () => {
    const task = await defineMujocoTask(planarDeclaration());
    const moved = episode(20, 0.5, 0.05);

    assert.match(task.render.story(moved), /^The robot runs to the time limit, 20 steps, 0\.50 metres along x \(trunk\) \(/);
    const [height, progress] = task.render.plots(moved, '#2563eb');
    assert.match(height, /trunk height \(m\) over time/);
    assert.match(progress, /metres along x \(trunk\) over time/);
    for (const chart of [height, progress]) {
      const ys = seriesYs(chart);
      assert.equal(ys.length, 21);
      assert.ok(ys[0] > ys[20], `the line rises: ${ys[0]} to ${ys[20]}`);
    }
    // The camera follows the body: 0.5 m at 150 px a metre is 75 px from its first frame to its last.
    const follow = /<animateTransform attributeName="transform" type="translate" [^>]*values="([^"]+)"/.exec(task.render.animation(moved, '#2563eb'))?.[1].split(';').map((v) => Number(v.split(' ')[0]));
    assert.ok(follow !== undefined);
    assert.equal(follow[0] - follow[follow.length - 1], 75);
  });

  it('reads the height as the body\'s world position (its place in the XML plus the slide), not the slide\'s own entry', async () => {
    const task = await defineMujocoTask(planarDeclaration());
    const still = episode(4, 0, 0);
    // The y axis's ticks hold the height the body stands at, 0.1 m (the slide at 0): its plot is flat at it.
    const [height] = task.render.plots(still, '#2563eb');
    assert.match(height, />0\.1</);
    assert.match(task.render.story(still), /, 0\.00 metres along x \(trunk\)/);
  });
});
