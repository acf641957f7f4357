/**
 * What the offline proposer breeds from (functions/propose/parents.ts), on a real table: the best
 * fully trained rewards, one slot each. A twin the screen found (the same reward on every episode
 * of the bank, trained once as its partner, issue 32 defect 8) carries its partner's scores and
 * `trained` outcome, and must not take a second slot for the same reward.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadParents } from '../functions/propose/parents.ts';
import { aggregateCandidate } from '../functions/shared/results/aggregate.ts';
import { rewardKey } from '../functions/shared/store/keys.ts';
import { proposedCandidate } from '../functions/shared/store/proposed-candidate.ts';
import type { CandidateRecord } from '../functions/shared/store/records.ts';
import { realStore } from './support/real-store.ts';

describe('Function: loadParents', () => {
  const real = realStore('eureka-parents-');

  async function put(searchId: string, name: string, success: number, extra: Partial<CandidateRecord> = {}): Promise<void> {
    const code = `function computeReward() { return [${success}, {}]; } // ${name}`;
    const record: CandidateRecord = { ...aggregateCandidate(proposedCandidate(`01-${name}`, { name, idea: name, code }, 'proposer'), 1, [], []), outcome: 'trained', success, ...extra };
    await real.store().putCandidate(searchId, record);
    await real.store().blobs.put(rewardKey(searchId, 1, record.candidateId), code, 'text/javascript');
  }

  it('gives each reward one slot: a twin of a parent is not another parent', async () => {
    await put('twins', 'best', 0.9);
    await put('twins', 'best-again', 0.9, { twinOf: 'best', seeds: [], stepsTrained: 0 });
    await put('twins', 'second', 0.6);
    await put('twins', 'third', 0.3);
    const parents = await loadParents(real.store(), 'twins', 1, 'none');
    assert.deepEqual(parents.map((p) => p.candidate.name), ['best', 'second', 'third']);
  });
});
