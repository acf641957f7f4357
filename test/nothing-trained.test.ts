/**
 * A search in which no candidate trained (issue 32, defect 3): with `screen: skip` a generation can
 * train nothing, and when every generation does, the search still ends with a card and a
 * summary.json that say no candidate trained and why, and what the baselines scored.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eureka } from './support/eureka-cli.ts';
import { wrongRewards } from './support/wrong-rewards.ts';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('A search whose every candidate the screen skipped', () => {
  it('ends with a card and a summary that say no candidate trained and why, and what the baselines scored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-nothing-trained-'));
    dirs.push(dir);
    // The one candidate, answered in a directory before it is asked: a reward whose sign is the wrong way round.
    const answers = join(dir, 'answers');
    await mkdir(answers);
    const flipped = wrongRewards('MountainCar-v0').find((w) => w.file.endsWith('sign-flipped.js'))!.source;
    await writeFile(join(answers, 'answer-1.json'), JSON.stringify({ candidates: [{ name: 'flipped', idea: 'the wrong way round', code: flipped }] }));
    const ran = await eureka(['search', '--generations', '1', '--candidates', '1', '--seeds', '1', '--steps', '4096', '--no-hostile', '--no-repair',
      '--screen', 'skip', '--proposer', `files:${answers}`, '--search-id', 'nothing', '--data-dir', join(dir, 'data'), '--json'], { ANTHROPIC_API_KEY: '' });
    assert.equal(ran.code, 6, ran.stderr);
    assert.match(ran.stderr, /^eureka: no winner: no candidate trained: 1 was skipped by the screen \(screen: "skip"\)\n$/m);
    const out = JSON.parse(ran.stdout);
    assert.equal(out.winner, null);
    assert.equal(out.baselines.length, 2);

    const winner = join(dir, 'data', 'bucket', 'searches', 'nothing', 'winner');
    const summary = JSON.parse(await readFile(join(winner, 'summary.json'), 'utf8'));
    assert.equal(summary.winner, null);
    assert.match(summary.nothingTrained, /^no candidate trained: 1 was skipped by the screen \(screen: "skip"\)/);
    assert.deepEqual(summary.baselines.map((b: { candidateId: string }) => b.candidateId).sort(), ['environment_reward', 'human_shaping']);
    for (const b of summary.baselines) assert.equal(typeof b.searchSuccess, 'number');

    const md = await readFile(join(winner, 'card.md'), 'utf8');
    assert.match(md, /^# No candidate trained: 1 was skipped by the screen/);
    assert.match(md, /the person's shaping \(`human_shaping`\): \d+% on the search's seeds/);
    assert.match(md, /flipped/);
    const html = await readFile(join(winner, 'card.html'), 'utf8');
    assert.match(html, /<h1>No candidate trained: 1 was skipped by the screen/);
    assert.doesNotMatch(html + md, /NaN|undefined|Infinity/);
    const shown = await eureka(['show', 'nothing', '--data-dir', join(dir, 'data')]);
    assert.match(shown.stdout, /^no candidate trained: 1 was skipped by the screen \(screen: "skip"\)$/m);
  });
});
