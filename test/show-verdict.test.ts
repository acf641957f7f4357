/**
 * `eureka show`'s (and `eureka search`'s) line on the winner against the best baseline: the same
 * success is never printed as a plain win (issue 35: "the winner beat the baselines: 50% against 50%").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdictLine, type ShownVerdict } from '../local/commands/show-verdict.ts';

const verdict = (beatsBaselines: boolean, winner: number, baseline: number, decidedBy: Extract<ShownVerdict, { versus: unknown }>['versus']['decidedBy']): ShownVerdict => ({
  beatsBaselines, winner: 'g1-energy-2',
  versus: { candidateId: 'human_shaping', name: 'human_shaping', baselineFreshSuccess: baseline, winnerFreshSuccess: winner, decidedBy },
});

describe('Function: verdictLine', () => {
  it('says a win on the same success was won on progress or the tie-break, and how', () => {
    const line = verdictLine(verdict(true, 0.5, 0.5, 'steps'));
    assert.doesNotMatch(line, /^the winner beat the baselines: /);
    assert.equal(line, 'the winner beat the baselines on steps only: g1-energy-2 succeeded as often as the best baseline, human_shaping ' +
      '(50% against 50% on the fresh seeds), and did it in fewer steps');
    assert.match(verdictLine(verdict(true, 0.9, 0.9, 'progress')), /on progress only: .*\(90% against 90% on the fresh seeds\), and did it with more progress$/);
  });

  it('prints a win on success with the scores, to a tenth of a point where whole points would read the same', () => {
    assert.equal(verdictLine(verdict(true, 0.8, 0.5, 'success')), 'the winner beat the baselines: g1-energy-2 80% against 50% on the fresh seeds of the best baseline, human_shaping');
    assert.match(verdictLine(verdict(true, 0.513, 0.507, 'success')), /: g1-energy-2 51\.3% against 50\.7% on the fresh seeds/);
  });

  it('calls a tie no win, and names the baseline to use', () => {
    assert.equal(verdictLine(verdict(false, 0.5, 0.5, 'tie')),
      'nothing the search found beat the baselines: use human_shaping (the winner, g1-energy-2, 50% against 50% on the fresh seeds, a tie)');
  });
});
