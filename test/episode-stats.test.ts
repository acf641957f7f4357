/**
 * What the episodes did: the trainer counts how its training episodes ended (success, terminated
 * otherwise, cut at the time limit) with their length and environment return, at 10 checkpoints;
 * the grader the same of the evaluation episodes; and each term's mean absolute value per step
 * beside its mean. Real seed-runs through the sandbox, on tasks whose numbers are known exactly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndingCounter, evaluationEndings, trainingEndings } from '../functions/train-seed/episode-stats.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import type { Episode } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';

const episode = (over: Partial<Episode>): Episode => ({
  observations: new Float32Array(0), obsSize: 0, recorded: new Float64Array(0), recordSize: 0, length: 10, return: -10, terminated: false, truncated: false, ...over,
});
const sum = (e: { success: number | null; terminated: number | null; truncated: number | null }) => (e.success ?? 0) + (e.terminated ?? 0) + (e.truncated ?? 0);

describe('Function: EndingCounter and trainingEndings', () => {
  it('counts a success however it ended, and the rest by how they ended', () => {
    const counter = new EndingCounter();
    counter.add(episode({ truncated: true, return: 500 }), true);
    counter.add(episode({ truncated: true, return: 5 }), false);
    counter.add(episode({ terminated: true, return: -100 }), false);
    assert.deepEqual(counter.take(), { terminated: 1, truncated: 1, returnSum: 405 });
    assert.deepEqual(counter.take(), { terminated: 0, truncated: 0, returnSum: 0 }, 'take starts again');
  });

  it('pools each tenth of training, leaves a tenth where nothing ended unmeasured, and never invents a share', () => {
    const ended = { episodesEnded: 4, episodesSucceeded: 1, episodeLength: 50, endings: { terminated: 2, truncated: 1, returnSum: -40 } };
    const quiet = { episodesEnded: 0, episodesSucceeded: 0, episodeLength: null, endings: { terminated: 0, truncated: 0, returnSum: 0 } };
    const older = { episodesEnded: 2, episodesSucceeded: 2, episodeLength: 20 };
    const tenths = trainingEndings([ended, quiet, ended, ended, ended, ended, ended, ended, ended, older]);
    assert.equal(tenths.length, 10);
    assert.deepEqual(tenths[0], { episodes: 4, success: 0.25, terminated: 0.5, truncated: 0.25, meanLength: 50, meanReturn: -10 });
    assert.deepEqual(tenths[1], { episodes: 0, success: null, terminated: null, truncated: null, meanLength: null, meanReturn: null });
    assert.deepEqual(tenths[9], { episodes: 2, success: 1, terminated: null, truncated: null, meanLength: 20, meanReturn: null },
      'an older checkpoint\'s rollout counted no endings: unknown, not 0');
  });

  it('gives the evaluation episodes\' endings as shares that sum to 1', () => {
    const endings = evaluationEndings([
      { success: true, length: 100, return: 250, truncated: false },
      { success: false, length: 1000, return: 30, truncated: true },
      { success: false, length: 80, return: -120, truncated: false },
      { success: false, length: 60, return: -200, truncated: false },
    ]);
    assert.deepEqual(endings, { episodes: 4, success: 0.25, terminated: 0.5, truncated: 0.25, meanLength: 310, meanReturn: -10 });
  });
});

describe('Function: runSeed records what the episodes did', () => {
  it('CartPole: every training episode\'s return is its length; an untrained policy\'s episodes end when the pole falls', async () => {
    const task = getTask('CartPole-v1');
    const code = `function computeReward(obs, action, nextObs, terminated) {
  const push = action === 1 ? 0.1 : -0.1;
  return [1 + push, { alive: 1, push }];
}`;
    const { result } = await runSeed({ task, candidateId: 'wobble', source: code, seed: 0, budget: { steps: 10 * 16 * 32, evalEpisodes: 4 } });
    assert.equal(result.outcome, 'trained', result.reason);
    const training = result.episodes?.training ?? [];
    assert.equal(training.length, 10);
    for (const [k, t] of training.entries()) {
      if (t.episodes === 0) continue;
      assert.ok(Math.abs(sum(t) - 1) < 1e-12, `checkpoint ${k}: the shares sum to 1`);
      assert.ok(t.meanReturn !== null && t.meanLength !== null && Math.abs(t.meanReturn - t.meanLength) < 1e-9, `checkpoint ${k}: +1 a step, so return = length`);
    }
    assert.ok((training[0].terminated ?? 0) > 0.9, `early on, the pole falls: ${JSON.stringify(training[0])}`);
    const evaluation = result.episodes?.evaluation;
    assert.equal(evaluation?.episodes, 4);
    assert.ok(evaluation && Math.abs(sum(evaluation) - 1) < 1e-12);
    assert.equal(evaluation?.meanReturn, result.meanReturn, 'the grader\'s own mean return');

    const push = result.terms.push;
    assert.ok(push.abs !== undefined, 'the mean absolute value is recorded');
    assert.ok(Math.abs(push.abs.late - 0.1) < 1e-12, `its size is 0.1 every step: ${push.abs.late}`);
    assert.ok(Math.abs(push.late) < 0.05, `while its mean, +0.1 and -0.1 about as often, is near 0: ${push.late}`);
    assert.equal(result.terms.alive.abs?.late, 1);
    assert.equal(push.abs.series.length, 10);
  });

  it('MountainCar: a policy that never reaches the flag is cut at the time limit, in training and in evaluation', async () => {
    const task = getTask('MountainCar-v0');
    const { result } = await runSeed({ task, candidateId: 'env', source: task.baselines.environment.code, seed: 1, budget: { steps: 3 * 16 * 128, evalEpisodes: 3 } });
    assert.equal(result.outcome, 'trained', result.reason);
    const measured = (result.episodes?.training ?? []).filter((t) => t.episodes > 0);
    assert.ok(measured.length > 0, 'some training episodes ended');
    for (const t of measured) assert.deepEqual(t, { episodes: t.episodes, success: 0, terminated: 0, truncated: 1, meanLength: 200, meanReturn: -200 });
    assert.deepEqual(result.episodes?.evaluation, { episodes: 3, success: 0, terminated: 0, truncated: 1, meanLength: 200, meanReturn: -200 });
  });
});
