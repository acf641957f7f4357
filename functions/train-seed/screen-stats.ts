/**
 * From what a reward paid on every transition of the bank to the screen: each episode's discounted
 * return, and from those the AUC of the successes above the failures (the Mann-Whitney statistic:
 * the share of pairs the success wins, ties half), per failure policy and overall; doing nothing and
 * the time limit as groups; each term's share of the total; the reward's scale.
 */
import type { Bank, BankEpisode } from '../../tasks/bank.ts';
import type { Screen, ScreenGroup, ScreenKind, ScreenTerm } from '../shared/search/screen-types.ts';

export interface BankValues {
  /** One reward per transition of the bank, episode after episode. */
  rewards: Float64Array;
  terms: Map<string, Float64Array>;
  gamma: number;
}

/** A term whose every value lies within this of its first (relative above 1) is constant. */
const CONSTANT_TOLERANCE = 1e-12;

/**
 * Above this |value| a reward's discounted sums could overflow a double (a sum over every step of
 * an episode, each worth up to 1 / (1 - gamma) steps): its values are screened in units of a power
 * of two (exact), and the returns kept in those units (Screen.returnsExponent). 2^512 leaves a
 * factor of 2^400 for episode lengths and horizons, and every ordinary reward in units of 1.
 */
const SCALE_ABOVE = 2 ** 512;

export function summarizeScreen(bank: Bank, raw: BankValues): Omit<Screen, 'ms'> {
  const exponent = returnsExponent(raw);
  const unit = 2 ** exponent;
  const values = exponent === 0 ? raw : inUnits(raw, unit);
  const { episodes } = bank;
  const starts = episodeStarts(episodes);
  const returns = discounted(episodes, starts, values.rewards, values.gamma);
  const successes = pick(returns, episodes, (e) => e.kind === 'success');
  const against = (group: number[]) => (successes.length > 0 && group.length > 0 ? auc(successes, group) : null);
  const failures = pick(returns, episodes, (e) => e.kind === 'failure');

  const kinds: ScreenKind[] = bank.policies.flatMap((p) => {
    const own = pick(returns, episodes, (e) => e.policy === p.name);
    if (own.length === 0) return [];
    return [{
      policy: p.name, kind: p.kind, words: p.words, episodes: own.length, meanReturn: mean(own),
      auc: p.kind === 'failure' ? against(own) : null,
      timeLimit: episodes.filter((e) => e.policy === p.name && endsOnTimeLimit(e)).length,
    }];
  });
  const preferred = kinds.filter((k) => k.auc !== null && k.auc < 0.5).sort((a, b) => (a.auc ?? 0) - (b.auc ?? 0));
  const overall = against(failures);
  const group = (test: (e: BankEpisode) => boolean): ScreenGroup | null => {
    const own = pick(returns, episodes, (e) => e.kind === 'failure' && test(e));
    const share = against(own);
    return share === null ? null : { episodes: own.length, meanReturn: mean(own), auc: share };
  };
  const timeLimit = group(endsOnTimeLimit);
  const terms = termsOf(bank, starts, values);

  return {
    gamma: values.gamma,
    bank: { stored: bank.stored, episodes: episodes.length, successes: successes.length, failures: failures.length, transitions: values.rewards.length },
    successWords: bank.successWords,
    auc: overall,
    kinds,
    prefers: preferred[0]?.policy ?? null,
    prefersFailure: (overall !== null && overall <= 0.5) || preferred.length > 0 || (timeLimit !== null && timeLimit.auc < 0.5),
    nothing: group((e) => e.policy === 'nothing'),
    timeLimit,
    successEnding: perStep(successEnding(episodes, starts, values.rewards), unit),
    terms: terms.map((t) => ({ ...t, mean: t.mean * unit })),
    constantTerm: perStep(constantTerm(episodes, starts, values, terms, returns, successes.length > 0), unit),
    constantStep: isConstant(raw.rewards) ? raw.rewards[0] : null,
    scale: {
      meanAbsStep: meanAbs(values.rewards) * unit,
      environmentStep: episodes.reduce((n, e) => n + Math.abs(e.return), 0) / Math.max(1, values.rewards.length),
      returnSpread: returns.length > 0 ? Math.max(...returns) - Math.min(...returns) : 0,
    },
    returns,
    returnsExponent: exponent,
  };
}

/** 0, or the power of two the values are screened in when they are too large to sum (SCALE_ABOVE). */
function returnsExponent(values: BankValues): number {
  let largest = 0;
  for (const column of [values.rewards, ...values.terms.values()]) for (const v of column) largest = Math.max(largest, Math.abs(v));
  // 2^1023 at most: 2^1024 is no double, and the largest double is below it.
  return largest > SCALE_ABOVE && Number.isFinite(largest) ? Math.min(1023, Math.ceil(Math.log2(largest))) : 0;
}

/** The values divided by a power of two (exact but for values that fall below the smallest normal double). */
function inUnits(values: BankValues, unit: number): BankValues {
  const scale = (column: Float64Array) => column.map((v) => v / unit);
  return { rewards: scale(values.rewards), terms: new Map([...values.terms].map(([name, column]) => [name, scale(column)])), gamma: values.gamma };
}

/** A per-step figure made in units back in the reward's own (finite: no larger than the largest value). */
function perStep<T extends { lastStep: number; otherSteps: number } | { value: number } | null>(figure: T, unit: number): T {
  if (figure === null || unit === 1) return figure;
  return 'value' in figure ? { ...figure, value: figure.value * unit } : { ...figure, lastStep: figure.lastStep * unit, otherSteps: figure.otherSteps * unit };
}

/** The share of (a, b) pairs with a above b, ties counted half. */
export function auc(a: readonly number[], b: readonly number[]): number {
  let wins = 0;
  for (const x of a) for (const y of b) wins += x > y ? 1 : x === y ? 0.5 : 0;
  return wins / (a.length * b.length);
}

function endsOnTimeLimit(e: BankEpisode): boolean {
  return e.truncated && !e.terminated;
}

function episodeStarts(episodes: readonly BankEpisode[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const e of episodes) {
    starts.push(at);
    at += e.length;
  }
  return starts;
}

/**
 * Each episode's discounted return from every one of its steps, averaged over the steps: what PPO's
 * advantages weigh, state by state. From the reset alone, a short gamma (Pendulum's 0.9) sees only
 * an episode's first steps, and so its start rather than what the policy did. The time limit is no
 * ending to PPO (it bootstraps there): a truncated episode's tail goes on at the rate it paid over
 * its last 1 / (1 - gamma) steps, so waiting out the clock is worth what it would be worth.
 */
function discounted(episodes: readonly BankEpisode[], starts: readonly number[], values: Float64Array, gamma: number): number[] {
  const window = Math.ceil(1 / (1 - gamma));
  return episodes.map((e, i) => {
    const at = starts[i];
    let toGo = e.truncated ? tailRate(values, at, e.length, window) / (1 - gamma) : 0;
    let sum = 0;
    for (let t = e.length - 1; t >= 0; t--) {
      toGo = values[at + t] + gamma * toGo;
      sum += toGo;
    }
    return sum / e.length;
  });
}

/** The mean of an episode's last `window` values. */
function tailRate(values: Float64Array, at: number, length: number, window: number): number {
  const from = Math.max(0, length - window);
  let sum = 0;
  for (let t = from; t < length; t++) sum += values[at + t];
  return sum / (length - from);
}

function pick(returns: readonly number[], episodes: readonly BankEpisode[], test: (e: BankEpisode) => boolean): number[] {
  return returns.filter((_, i) => test(episodes[i]));
}

/** Where most successes end by termination: their last step's mean reward against every other step's. */
function successEnding(episodes: readonly BankEpisode[], starts: readonly number[], rewards: Float64Array): Screen['successEnding'] {
  const ending = episodes.flatMap((e, i) => (e.kind === 'success' && e.terminated ? [starts[i] + e.length - 1] : []));
  const successes = episodes.filter((e) => e.kind === 'success').length;
  if (ending.length === 0 || ending.length * 2 < successes) return null;
  const last = new Set(ending);
  let other = 0;
  for (let t = 0; t < rewards.length; t++) if (!last.has(t)) other += rewards[t];
  return { lastStep: mean(ending.map((t) => rewards[t])), otherSteps: other / Math.max(1, rewards.length - last.size) };
}

function termsOf(bank: Bank, starts: readonly number[], values: BankValues): ScreenTerm[] {
  const { episodes } = bank;
  const sums = [...values.terms].map(([name, column]) => ({ name, column, abs: meanAbs(column) * column.length }));
  const total = sums.reduce((n, t) => n + t.abs, 0);
  return sums.map(({ name, column, abs }) => {
    const returns = discounted(episodes, starts, column, values.gamma);
    const byPolicy = Object.fromEntries(bank.policies.flatMap((p) => {
      const own = pick(returns, episodes, (e) => e.policy === p.name);
      return own.length > 0 ? [[p.name, mean(own)]] : [];
    }));
    return { name, share: total > 0 ? abs / total : 0, mean: mean(Array.from(column)), constant: isConstant(column), byPolicy };
  });
}

/** The largest constant term: its own AUC, and the AUC of the returns less its returns. */
function constantTerm(
  episodes: readonly BankEpisode[], starts: readonly number[], values: BankValues, terms: readonly ScreenTerm[], returns: readonly number[], hasSuccesses: boolean,
): Screen['constantTerm'] {
  const top = terms.filter((t) => t.constant).sort((a, b) => b.share - a.share)[0];
  if (!top) return null;
  const column = values.terms.get(top.name) as Float64Array;
  const own = discounted(episodes, starts, column, values.gamma);
  const rest = returns.map((r, i) => r - own[i]);
  const aucOf = (xs: readonly number[]): number | null => {
    if (!hasSuccesses) return null;
    const failures = pick(xs, episodes, (e) => e.kind === 'failure');
    return failures.length > 0 ? auc(pick(xs, episodes, (e) => e.kind === 'success'), failures) : null;
  };
  return { name: top.name, value: column[0], share: top.share, auc: aucOf(own), aucWithout: aucOf(rest) };
}

function isConstant(column: Float64Array): boolean {
  const first = column[0];
  if (first === undefined || first === 0) return false;
  const within = CONSTANT_TOLERANCE * Math.max(1, Math.abs(first));
  return column.every((v) => Math.abs(v - first) <= within);
}

function mean(xs: readonly number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function meanAbs(xs: Float64Array): number {
  let total = 0;
  for (const x of xs) total += Math.abs(x);
  return xs.length > 0 ? total / xs.length : 0;
}
