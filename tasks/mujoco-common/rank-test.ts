/**
 * The two-sample rank test the distribution check uses (Wilcoxon's rank sum, Mann and Whitney's U):
 * whether two samples could come from one distribution. It reads only the order of the values, so
 * a heavy tail (Ant's random episodes last 17 to 1,000 steps) weighs no more than its rank, and
 * its p-value is taken by permuting the labels, not from a normal approximation: valid at any
 * sample size and with ties (episodes cut at the time limit, a 0/1 ending), where a z-score of the
 * means is neither.
 */
import { Random } from '../../core/random.ts';

/** Permutations a p-value is estimated from: its resolution is 1/(1 + PERMUTATIONS). */
export const PERMUTATIONS = 4_000;
/** The permutations' generator: fixed, so the same samples always get the same p-value. */
const PERMUTATION_SEED = 42;

/** Mid-ranks (1-based; tied values share the mean of their ranks) of the values. */
export function midRanks(values: readonly number[]): Float64Array {
  const order = values.map((v, i) => [v, i] as const).sort((p, q) => p[0] - q[0]);
  const ranks = new Float64Array(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1][0] === order[start][0]) end++;
    for (let k = start; k <= end; k++) ranks[order[k][1]] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

/**
 * Two-sided p-value that samples `a` and `b` come from one distribution: the share of label
 * permutations whose rank sum of `a` lies at least as far from its mean as the observed one
 * (counting the observed one: never 0). 1 when every value is tied.
 */
export function rankSumPValue(a: readonly number[], b: readonly number[]): number {
  const ranks = midRanks([...a, ...b]);
  const [m, n] = [a.length, ranks.length];
  const expected = (m * (n + 1)) / 2;
  const distance = (sum: number): number => Math.abs(sum - expected);
  let observed = 0;
  for (let k = 0; k < m; k++) observed += ranks[k];
  const far = distance(observed) - 1e-9;
  const rng = new Random(PERMUTATION_SEED);
  const pool = Float64Array.from(ranks);
  let atLeast = 0;
  for (let p = 0; p < PERMUTATIONS; p++) {
    // A partial Fisher-Yates shuffle: the first m places are a uniform draw of a's labels.
    let sum = 0;
    for (let k = 0; k < m; k++) {
      const j = k + rng.int(n - k);
      [pool[k], pool[j]] = [pool[j], pool[k]];
      sum += pool[k];
    }
    if (distance(sum) >= far) atLeast += 1;
  }
  return (1 + atLeast) / (1 + PERMUTATIONS);
}
