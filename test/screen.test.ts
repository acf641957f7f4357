/**
 * The screen (issue 24): every baseline and every reward of examples/ passes it (but a behaviour's
 * robot's own reward, which pays for something else: the screen flags it), the person's shaping
 * ranking the bank's successes first (AUC at least 0.95 on every task: it learns on each);
 * every deliberately wrong reward of test/fixtures/wrong-rewards/ is flagged with the finding its
 * "// expect:" line names. The thresholds of screen-words.ts were chosen on the baselines and
 * examples/, so the wrong rewards are the held-out check.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import type { Screen } from '../functions/shared/search/screen-types.ts';
import { sameOnBank, screenFindings } from '../functions/shared/words/screen-words.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask, TASKS } from '../tasks/registry.ts';
import { failing, missing, wrongRewards } from './support/wrong-rewards.ts';

async function screenOf(task: Task, source: string): Promise<Screen> {
  // The screen is of the bank alone; the check's random transitions before it only have to run the
  // reward, and 1,024 do (4,096, the default, cost Ant and Go1 seconds of stepping a call).
  const result = await checkReward(task, source, { samples: 1024 });
  assert.equal(result.verdict, 'ok', result.reason);
  assert.ok(result.screen, 'a passing check screens');
  return result.screen;
}

const example = (name: string): string => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');

describe('The screen of the baselines', () => {
  for (const task of TASKS) {
    it(`${task.id}: the person's shaping ranks the successes first (AUC >= 0.95); neither baseline fails, or a behaviour's robot's own reward does`, async () => {
      const human = await screenOf(task, task.baselines.human.code);
      if (task.bank?.noSuccessesYet !== undefined) {
        // Nothing to rank: the screen says so, and judges the terms and scale alone.
        assert.equal(human.auc, null);
        assert.ok(screenFindings(human).some((f) => f.code === 'no-successes'));
      } else {
        assert.ok((human.auc ?? 0) >= 0.95, `AUC ${human.auc}`);
      }
      assert.deepEqual(failing(human), [], screenFindings(human).map((f) => f.text).join('; '));
      const environment = await screenOf(task, task.baselines.environment.code);
      if (task.bank?.trainedFailures !== undefined && task.bank.noSuccessesYet === undefined) {
        // A behaviour's environment reward is its robot's own: it pays for something else, and the screen says so.
        assert.notDeepEqual(failing(environment), [], 'the robot\'s own reward is flagged on the behaviour\'s bank');
      } else if (task.bank?.trainedFailures === undefined) {
        assert.deepEqual(failing(environment), [], screenFindings(environment).map((f) => f.text).join('; '));
      }
      assert.equal(human.bank.episodes, human.returns.length);
    });
  }

  it('MountainCar-v0: the rewards of examples/ pass', async () => {
    for (const name of ['energy.js', 'environment.js']) {
      const screen = await screenOf(getTask('MountainCar-v0'), example(name));
      assert.deepEqual(failing(screen), [], `${name}: ${screenFindings(screen).map((f) => f.text).join('; ')}`);
    }
  });
});

describe('The screen of deliberately wrong rewards', () => {
  for (const task of TASKS) {
    for (const wrong of wrongRewards(task.id)) {
      it(`${wrong.file}: ${wrong.expect.map((e) => (e.policy ? `${e.code}:${e.policy}` : e.code)).join(' ')}`, async () => {
        const screen = await screenOf(task, wrong.source);
        assert.deepEqual(missing(screen, wrong.expect), [], screenFindings(screen).map((f) => f.text).join('; '));
      });
    }
  }
});

describe('Function: the screen\'s AUC', () => {
  it('turns over with the reward: the negated person\'s shaping has AUC 1 - its own, and pays the same spread', async () => {
    const task = getTask('CartPole-v1');
    const own = await screenOf(task, task.baselines.human.code);
    const negated = `${task.baselines.human.code}
      const __own = computeReward;
      computeReward = function (o, a, n, t) { const [total, terms] = __own(o, a, n, t); const out = {}; for (const k of Object.keys(terms)) out[k] = -terms[k]; return [-total, out]; };`;
    const flipped = await screenOf(task, negated);
    assert.ok(Math.abs((flipped.auc ?? 0) - (1 - (own.auc ?? 0))) < 1e-12, `${flipped.auc} against ${own.auc}`);
    assert.ok(Math.abs(flipped.scale.returnSpread - own.scale.returnSpread) <= 1e-9 * own.scale.returnSpread);
    assert.ok(flipped.returns.every((r, i) => Math.abs(r + own.returns[i]) <= 1e-9 * Math.max(1, Math.abs(r))));
    assert.deepEqual(failing(flipped), ['sign']);
  });

  it('ranks a reward of huge finite values (1e307 a step) as its unscaled self: finite returns, the same AUC, stored as screened, no twin of another', async () => {
    const task = getTask('MountainCar-v0');
    const huge = (code: string) => `${code}
      const __own = computeReward;
      computeReward = function (o, a, n, t) { const [total, terms] = __own(o, a, n, t); const out = {}; for (const k of Object.keys(terms)) out[k] = terms[k] * 1e307; return [total * 1e307, out]; };`;
    const person = await screenOf(task, task.baselines.human.code);
    const hugePerson = await screenOf(task, huge(task.baselines.human.code));
    assert.equal(hugePerson.auc, person.auc);
    assert.deepEqual(failing(hugePerson), failing(person), screenFindings(hugePerson).map((f) => f.text).join('; '));
    assert.ok(hugePerson.returns.every(Number.isFinite));
    assert.deepEqual(JSON.parse(JSON.stringify(hugePerson)), hugePerson, 'check.json holds the screen the check made');
    const hugeEnvironment = await screenOf(task, huge(task.baselines.environment.code));
    assert.equal(sameOnBank(hugePerson, hugeEnvironment), false);
    assert.equal(sameOnBank(hugePerson, person), false);
    assert.equal(sameOnBank(hugePerson, hugePerson), true);
  });

  it('a bonus for every step pays for waiting out the clock; the goal alone does not', async () => {
    const task = getTask('MountainCar-v0');
    const waits = await screenOf(task, 'function computeReward(o, a, n, t) { const alive = 1; const goal = t ? 10 : 0; return [alive + goal, { alive, goal }]; }');
    assert.ok(failing(waits).includes('time-limit'), screenFindings(waits).map((f) => f.text).join('; '));
    const goal = await screenOf(task, 'function computeReward(o, a, n, t) { const goal = t ? 10 : 0; return [goal, { goal }]; }');
    assert.deepEqual(failing(goal), []);
    assert.equal(goal.auc, 1);
  });
});
