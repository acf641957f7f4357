/**
 * What the screen says of a reward (issue 24): its discounted returns on the task's bank of known
 * successes and failures (tasks/bank.ts), and what follows from them. Made in TrainSeed
 * (functions/train-seed/screen.ts) with the candidate's check; read by the words
 * (screen-words.ts), the reflection and the card.
 */

/** One policy's episodes in the bank, as the reward pays them. */
export interface ScreenKind {
  policy: string;
  kind: 'success' | 'failure';
  /** What its episodes show: "hovering to the time limit". */
  words: string;
  episodes: number;
  /** Mean discounted return of the reward over its episodes. */
  meanReturn: number;
  /**
   * Failures only: the share of (success, this failure) pairs in which the success is paid more
   * (a tie counts half). Below 0.5 the reward prefers this failure. null without successes.
   */
  auc: number | null;
  /** Its episodes that ended on the time limit (not terminated). */
  timeLimit: number;
}

/** One term of the reward over the whole bank. */
export interface ScreenTerm {
  name: string;
  /** Its share of the sum of every term's |value| over the bank's transitions, in [0, 1]. */
  share: number;
  /** Mean value per transition. */
  mean: number;
  /** The same value on every transition of the bank (and not 0). */
  constant: boolean;
  /** Its mean discounted return on each policy's episodes. */
  byPolicy: Record<string, number>;
}

/** A group of failures compared with the successes as a whole: doing nothing, or the time limit. */
export interface ScreenGroup {
  episodes: number;
  meanReturn: number;
  /** As ScreenKind.auc: below 0.5 the group is paid more than the successes. */
  auc: number;
}

export interface Screen {
  /** The discount the returns are taken with: the task's PPO gamma. */
  gamma: number;
  bank: {
    /** Read from the task folder's bank.json.gz (false: made on the fly, without trained successes). */
    stored: boolean;
    episodes: number;
    successes: number;
    failures: number;
    transitions: number;
  };
  /** What a success shows: "landing". */
  successWords: string;
  /** The share of (success, failure) pairs in which the success is paid more; null without successes. */
  auc: number | null;
  kinds: ScreenKind[];
  /** The failure policy the reward prefers most (the lowest AUC below 0.5), or null. */
  prefers: string | null;
  /**
   * The overall AUC is at most 0.5, or it prefers a failure. Not the verdict: the findings
   * (screen-words.ts `failsScreen`) decide, and at exactly 0.5 with no failing finding a reward passes.
   */
  prefersFailure: boolean;
  /** The "nothing" policy's episodes (the neutral action), where the bank has them and successes. */
  nothing: ScreenGroup | null;
  /** Every failure that ended on the time limit, where there are some and successes. */
  timeLimit: ScreenGroup | null;
  /**
   * Where the successes end by termination (reaching the flag, coming to rest): the mean reward of
   * their last step against the mean of every other step of the bank. null where they do not.
   */
  successEnding: { lastStep: number; otherSteps: number } | null;
  terms: ScreenTerm[];
  /**
   * The constant term with the largest share (the same on every transition, not 0), where there is
   * one: what it alone pays for (its AUC: only the episodes' lengths can tell them apart) and the
   * AUC of the rest of the reward without it. A constant that floods ranks worse than the rest would.
   */
  constantTerm: { name: string; value: number; share: number; auc: number | null; aucWithout: number | null } | null;
  /** The reward's value when it is the same on every transition of the bank (only lengths tell episodes apart), else null. */
  constantStep: number | null;
  scale: {
    /** Mean |reward| per transition. */
    meanAbsStep: number;
    /** The environment's own reward's, from the bank's returns: sum of |return| over steps. */
    environmentStep: number;
    /** Highest less lowest discounted return over the bank. */
    returnSpread: number;
  };
  /**
   * Every episode's discounted return, in bank order (two rewards that agree here are one): its
   * return from each of its steps averaged over them, a truncated tail going on at its last rate
   * (screen-stats.ts).
   */
  returns: number[];
  /**
   * The returns, every meanReturn, byPolicy and returnSpread are in units of 2^returnsExponent: 0
   * (units of 1) for every ordinary reward; above 0 for one whose values are so large that its
   * discounted sums would overflow a double (screen-stats.ts). Absent on screens stored before it: 0.
   */
  returnsExponent?: number;
  /** Milliseconds the screen took (the sandbox's calls and the statistics). */
  ms: number;
}
