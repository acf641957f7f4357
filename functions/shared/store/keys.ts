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

/** A seed-run's result at a rung of a race (graded at `steps`, short of its budget). */
export function rungResultKey(searchId: string, generation: number, candidateId: string, seed: number, steps: number): string {
  return `${seedPrefix(searchId, generation, candidateId, seed)}/rungs/${steps}.json`;
}

/** Where a seed-run's chunks leave their checkpoint for the next (functions/train-seed/seed-task.ts). */
export function checkpointKey(searchId: string, generation: number, candidateId: string, seed: number): string {
  return `${seedPrefix(searchId, generation, candidateId, seed)}/checkpoint.bin`;
}

/** The stored result a summary stands for: the rung's for a seed-run the race stopped, else result.json. */
export function summaryResultKey(searchId: string, generation: number, s: { candidateId: string; seed: number; outcome: string; stepsTrained: number }): string {
  return s.outcome === 'stopped'
    ? rungResultKey(searchId, generation, s.candidateId, s.seed, s.stepsTrained)
    : seedResultKey(searchId, generation, s.candidateId, s.seed);
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

/** What the screen decided for a generation's seed-runs (functions/reflect/screen-plan.ts): Plan writes it, Reflect reads it. */
export function screenPlanKey(searchId: string, generation: number): string {
  return `${searchPrefix(searchId)}/generations/${generation}/screen-plan.json`;
}
