/** The bucket's key layout (DESIGN §3): one place, so every handler agrees. */

export function searchPrefix(searchId: string): string {
  return `searches/${searchId}`;
}

export function candidatePrefix(searchId: string, generation: number, candidateId: string): string {
  return `${searchPrefix(searchId)}/generations/${generation}/candidates/${candidateId}`;
}

export function rewardKey(searchId: string, generation: number, candidateId: string): string {
  return `${candidatePrefix(searchId, generation, candidateId)}/reward.js`;
}

/** The candidate's sandbox check (functions/train-seed/candidate-check.ts), made before any seed trains. */
export function checkKey(searchId: string, generation: number, candidateId: string): string {
  return `${candidatePrefix(searchId, generation, candidateId)}/check.json`;
}

export function seedPrefix(searchId: string, generation: number, candidateId: string, seed: number): string {
  return `${candidatePrefix(searchId, generation, candidateId)}/seeds/${seed}`;
}

export function seedResultKey(searchId: string, generation: number, candidateId: string, seed: number): string {
  return `${seedPrefix(searchId, generation, candidateId, seed)}/result.json`;
}

export function seedPolicyPrefix(searchId: string, generation: number, candidateId: string, seed: number): string {
  return `${seedPrefix(searchId, generation, candidateId, seed)}/policy`;
}

export function winnerPrefix(searchId: string): string {
  return `${searchPrefix(searchId)}/winner`;
}

/** The card of the search so far, written when it pauses for feedback after `generation`. */
export function interimCardKey(searchId: string, generation: number): string {
  return `${searchPrefix(searchId)}/generations/${generation}/card.html`;
}
