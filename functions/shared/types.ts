/** Contracts between the state machine and the handlers. Payloads stay small: references, not blobs. */

export type Outcome = 'trained' | 'timeout' | 'memory' | 'error';

/** What one seed-run is given: the Map item of "Train seeds". */
export interface SeedTask {
  searchId: string;
  generation: number;
  candidateId: string;
  seed: number;
  budget: Budget;
}

export interface Budget {
  /** Environment steps of PPO training. */
  steps: number;
  /** Greedy evaluation episodes used to grade the policy. */
  evalEpisodes: number;
}

/** Per-term statistics, Eureka-style. */
export interface TermStats {
  /** Mean value per step over the first 10% of updates. */
  early: number;
  /** Mean value per step over the last 10% of updates. */
  late: number;
  /** Mean value per step at 10 evenly spaced checkpoints of training. */
  series: number[];
}

/** The full result of one seed-run, stored as result.json next to the policy. */
export interface SeedResult {
  candidateId: string;
  seed: number;
  outcome: Outcome;
  /** Empty when trained; otherwise one line that says what went wrong. */
  reason: string;
  /** Share of greedy evaluation episodes that reached the flag (0 when not trained). */
  success: number;
  /** Mean steps to the flag over the successful evaluation episodes (null when none succeeded). */
  meanStepsToFlag: number | null;
  /** Mean of the highest position reached in each evaluation episode. */
  meanMaxPosition: number;
  terms: Record<string, TermStats>;
  /** Share of finished training episodes that reached the flag, at 10 checkpoints. */
  trainSuccessSeries: number[];
  /** One point per PPO update. */
  curve: CurvePoint[];
  /** One greedy evaluation episode's positions and velocities, for the card. */
  episode: { positions: number[]; velocities: number[] };
  steps: number;
  wallSeconds: number;
  sandboxSeconds: number;
  backend: string;
}

export interface CurvePoint {
  step: number;
  /** Mean of the candidate's reward per step in the rollout. */
  meanReward: number;
  /** Share of training episodes that ended at the flag in this rollout. */
  trainSuccess: number;
  /** Mean length of the episodes that ended in this rollout. */
  episodeLength: number;
}

/** What TrainSeed returns to the state machine: small on purpose. */
export interface SeedSummary {
  candidateId: string;
  seed: number;
  outcome: Outcome;
  reason: string;
  success: number;
  meanStepsToFlag: number | null;
  resultKey: string;
}
