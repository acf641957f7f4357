/**
 * A candidate as the table records it when it is proposed: its id, name, idea, the hash of its
 * code and where it came from. Propose writes it for the model's candidates, Reflect for the
 * baselines and the human rewards.
 */
import { createHash } from 'node:crypto';
import type { ProposedCandidate } from './records.ts';
import type { Candidate } from '../search/types.ts';

export function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex').slice(0, 16);
}

export function proposedCandidate(candidateId: string, c: Candidate, origin: ProposedCandidate['origin']): ProposedCandidate {
  return { candidateId, name: c.name, idea: c.idea, codeHash: codeHash(c.code), origin };
}
