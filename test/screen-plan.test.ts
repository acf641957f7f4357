/**
 * What the screen decides at "Plan the seed-runs" (functions/reflect/screen-plan.ts), on screens of
 * real rewards over MountainCar's bank: the order (highest AUC first), skip, repair's replacement,
 * and one training for two rewards that pay the same on the whole bank.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import type { Screen } from '../functions/shared/search/screen-types.ts';
import { decide } from '../functions/reflect/screen-plan.ts';
import { getTask } from '../tasks/registry.ts';
import { eureka } from './support/eureka-cli.ts';
import { wrongRewards } from './support/wrong-rewards.ts';

const task = getTask('MountainCar-v0');
const screenOf = async (source: string): Promise<Screen> => (await checkReward(task, source)).screen as Screen;

describe('Function: decide (the screen\'s plan)', async () => {
  const good = await screenOf(task.baselines.human.code);
  // The same reward written otherwise: the same returns on every episode.
  const rewritten = await screenOf(`${task.baselines.human.code}\nconst __f = computeReward; computeReward = function (o, a, n, t) { const [r, terms] = __f(o, a, n, t); return [r * 1, terms]; };`);
  const flipped = await screenOf(wrongRewards(task.id).find((w) => w.file.endsWith('sign-flipped.js'))!.source);
  const environment = await screenOf(task.baselines.environment.code);
  const screens = new Map<string, Screen | null>([['a', flipped], ['b', environment], ['c', good], ['d', rewritten], ['old', null]]);

  it('report: every one trains but a twin, highest AUC first (ties as proposed), an unscreened one last', () => {
    const plan = decide(['a', 'b', 'c', 'd', 'old'], screens, 'report');
    assert.deepEqual(plan.train, ['b', 'c', 'a', 'old']);
    assert.deepEqual(plan.notTrained.map((n) => [n.candidateId, n.why, n.of]), [['d', 'twin', 'c']]);
  });

  it('skip: the one that prefers a failure never trains, with the screen\'s words', () => {
    const plan = decide(['a', 'c'], screens, 'skip');
    assert.deepEqual(plan.train, ['c']);
    assert.equal(plan.notTrained[0].why, 'skipped');
    assert.match(plan.notTrained[0].words, /ranks every failure above reaching the flag/);
  });

  it('repair: the one sent back gives its place to its repair when that passed; without one it trains', () => {
    const withRepair = decide(['a', 'c', 'a-repaired'], new Map([...screens, ['a-repaired', environment]]), 'repair', new Map([['a', 'a-repaired']]));
    assert.deepEqual(withRepair.train.sort(), ['a-repaired', 'c']);
    assert.deepEqual(withRepair.notTrained.map((n) => [n.candidateId, n.why, n.of]), [['a', 'replaced', 'a-repaired']]);
    assert.deepEqual(decide(['a', 'c'], screens, 'repair', new Map([['a', 'a-repaired']])).train.sort(), ['a', 'c']);
  });
});

describe('A search with screen: "skip"', () => {
  it('never trains a person\'s reward that prefers a failure, says why, and trains the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-skip-'));
    const flipped = join(dir, 'flipped.js');
    await writeFile(flipped, wrongRewards(task.id).find((w) => w.file.endsWith('sign-flipped.js'))!.source);
    const ran = await eureka(['search', '--smoke', '--generations', '1', '--candidates', '1', '--seeds', '1', '--no-hostile', '--screen', 'skip',
      '--human-init', flipped, '--proposer', 'offline', '--data-dir', dir, '--json'], { ANTHROPIC_API_KEY: '' });
    assert.equal(ran.code, 0, ran.stderr);
    const rows = JSON.parse(ran.stdout).generations[0].rows as Array<{ name: string; reason: string; outcome: string }>;
    const person = rows.find((r) => r.name === 'flipped');
    assert.ok(person, JSON.stringify(rows));
    assert.match(person.reason, /^not trained: skipped \(screen: "skip"\): AUC 0\.00 .*ranks every failure above reaching the flag/);
    assert.ok(rows.some((r) => r.name !== 'flipped' && r.outcome !== 'error'), 'the proposer\'s candidate trained');
    // eureka show ID --generation N: the analysis, each candidate with the screen's words, the reflection.
    const searchId = JSON.parse(ran.stdout).searchId as string;
    const shown = await eureka(['show', searchId, '--generation', '1', '--data-dir', dir, '--json']);
    assert.equal(shown.code, 0, shown.stderr);
    const generation = JSON.parse(shown.stdout);
    assert.equal(generation.analysis.proposal, '', 'the offline grammar writes no analysis');
    assert.match(generation.rows.find((r: { name: string }) => r.name === 'flipped').screen, /^AUC 0\.00 .*ranks every failure above reaching the flag/);
    assert.match(generation.reflection, /## Last generation's candidates \(name \| success \| progress \| outcome \| idea \| screen\)/);
    // Each candidate's progress (what the race ranks by before anything succeeds); none where it never trained.
    const shownRows = generation.rows as Array<{ name: string; outcome: string; progress: number | null }>;
    assert.equal(shownRows.find((r) => r.name === 'flipped')?.progress, null);
    assert.ok(shownRows.some((r) => r.outcome === 'trained' && typeof r.progress === 'number'), JSON.stringify(shownRows));
    const text = await eureka(['show', searchId, '--generation', '1', '--data-dir', dir]);
    assert.match(text.stdout, /The proposer's analysis:\n\(none written\)/);
    assert.match(text.stdout, /Candidates \(success, progress, outcome, name\):\n/);
    assert.match(text.stdout, /\n +0% +- error +flipped  \(not trained: skipped/);
    const beyond = await eureka(['show', searchId, '--generation', '2', '--data-dir', dir]);
    assert.equal(beyond.code, 2);
    assert.match(beyond.stderr, /--generation: search .* has 1 generation \(got 2\)/);
    await rm(dir, { recursive: true, force: true });
  });
});
