/** What `eureka check-reward` prints of the screen: its first line agrees with the findings the search acts on. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeScreen } from '../functions/train-seed/screen-stats.ts';
import { failsScreen } from '../functions/shared/words/screen-words.ts';
import { describeScreen } from '../local/screen-text.ts';
import { syntheticBank } from './support/synthetic-bank.ts';

const screenOf = (made: ReturnType<typeof syntheticBank>) => ({ ...summarizeScreen(made.bank, made.values), ms: 0 });

describe('Function: describeScreen', () => {
  it('at an AUC of exactly 0.5 with no failing finding, says the reward passes, as skip and repair decide', () => {
    // Successes return 2 and 0, failures 1 and 1: each success wins two pairs and loses two.
    const screen = screenOf(syntheticBank([
      { policy: 'good', kind: 'success', rewards: [2, 0, 0] }, { policy: 'good', kind: 'success', rewards: [0, 0, 0] },
      { policy: 'bad', kind: 'failure', rewards: [1, 0, 0] }, { policy: 'bad', kind: 'failure', rewards: [1, 0, 0] },
    ]));
    assert.equal(screen.auc, 0.5);
    assert.equal(failsScreen(screen), false);
    const [first] = describeScreen(screen);
    assert.doesNotMatch(first, /prefers a failure/);
    assert.match(first, /^screen: passes /);
  });

  it('says which finding fails a reward that does', () => {
    const screen = screenOf(syntheticBank([
      { policy: 'good', kind: 'success', rewards: [0, 0, 0] }, { policy: 'bad', kind: 'failure', rewards: [1, 0, 0] },
    ]));
    assert.equal(failsScreen(screen), true);
    assert.match(describeScreen(screen)[0], /^screen: FAILS \(ranks every failure above succeeding/);
  });

  it('gives the returns of a reward of huge values in their units of 2^returnsExponent, beside the scale a step in plain units', () => {
    const screen = screenOf(syntheticBank([
      { policy: 'good', kind: 'success', rewards: [1e307, 1e307, 1e307] }, { policy: 'bad', kind: 'failure', rewards: [1e307, 0, 0] },
    ]));
    const exponent = screen.returnsExponent ?? 0;
    assert.ok(exponent > 0, 'the screen holds these returns in units of a power of two');
    const lines = describeScreen(screen);
    const returns = lines.filter((line) => / mean return /.test(line));
    assert.equal(returns.length, 2);
    for (const line of returns) assert.match(line, new RegExp(` mean return [0-9.]+ × 2\\^${exponent}`));
    // 4e307 paid over 6 steps, in plain units.
    const scale = lines.find((line) => line.startsWith('  scale: '));
    assert.match(scale ?? '', new RegExp(`^  scale: 6\\.67e\\+306 a step .*, returns spread over [0-9.e+]+ × 2\\^${exponent}$`));
    // An ordinary reward's returns are in units of 1, and say nothing of it.
    const ordinary = screenOf(syntheticBank([{ policy: 'good', kind: 'success', rewards: [1, 1, 1] }, { policy: 'bad', kind: 'failure', rewards: [1, 0, 0] }]));
    assert.equal(describeScreen(ordinary).some((line) => line.includes('2^')), false);
  });
});
