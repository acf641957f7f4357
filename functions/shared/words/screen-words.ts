/**
 * The screen in words (issue 24): a short taxonomy of what a reward pays for, as the model, the
 * card and the scoreboard read it. "pays more for hovering to the time limit than for landing",
 * "never pays for <the task's success words> itself", "one term, alive, is 98% of the total".
 *
 * A finding that 'fails' says the reward does not rank the successes above the failures (the
 * screen's prefersFailure); one that 'warns' says something a person would want to know.
 */
import type { Screen, ScreenKind } from '../search/screen-types.ts';

export type FindingCode = 'flat' | 'sign' | 'prefers' | 'time-limit' | 'no-successes' | 'no-goal' | 'flood' | 'dominant' | 'scale';

export interface ScreenFinding {
  code: FindingCode;
  severity: 'fails' | 'warns';
  text: string;
}

/**
 * A term at least this share of the total drowns the rest; a constant one floods them (it pays
 * every step alike, whatever happens). Chosen on the baselines and examples/ (the largest share
 * of a term there is a baseline's constant step cost, 62%), checked on the wrong rewards of
 * test/fixtures/wrong-rewards/.
 */
export const DOMINANT_SHARE = 0.9;
/** A reward more than this many times larger (or smaller) per step than the environment's own. */
export const SCALE_RATIO = 100;

export function screenFindings(screen: Screen): ScreenFinding[] {
  const success = screen.successWords;
  if (screen.bank.successes === 0) {
    return [{ code: 'no-successes', severity: 'warns', text: 'the bank holds no successes to compare with (`eureka bank` makes them): only its terms and scale were screened' }, ...termFindings(screen)];
  }
  const largest = Math.max(1, ...screen.returns.map(Math.abs));
  if (screen.scale.returnSpread <= 1e-9 * largest) {
    return [{ code: 'flat', severity: 'fails', text: `pays the same for every episode of the bank: it cannot tell ${success} from failing` }, ...termFindings(screen)];
  }
  const found: ScreenFinding[] = [];
  const failures = screen.kinds.filter((k) => k.kind === 'failure' && k.auc !== null);
  const preferred = failures.filter((k) => (k.auc ?? 1) < 0.5).sort((a, b) => (a.auc ?? 0) - (b.auc ?? 0));
  const constant = screen.constantTerm;
  // Every failure above every success, and not for a constant's sake: the rest of it ranks them so too.
  const signFlipped = screen.auc !== null && screen.auc < 0.5 && preferred.length === failures.length &&
    screen.constantStep === null && (constant === null || (constant.aucWithout ?? 0) < 0.5);
  if (signFlipped) {
    found.push({ code: 'sign', severity: 'fails', text: `ranks every failure above ${success} (AUC ${fixed(screen.auc ?? 0)}): is its sign the wrong way round?` });
  } else {
    // Where successes end before the time limit, a failure that mostly waits it out is paid for waiting.
    const waits = successesTerminate(screen) ? preferred.filter((k) => k.timeLimit * 2 > k.episodes) : [];
    const others = preferred.filter((k) => !waits.includes(k));
    if (others.length > 0) found.push({ code: 'prefers', severity: 'fails', text: prefersText(screen, others) });
    const group = screen.timeLimit;
    if (waits.length > 0 || (group !== null && group.auc < 0.5 && successesTerminate(screen) && others.length === 0)) {
      const which = waits.length > 0 ? ` (${waits.map((k) => `${k.words}, AUC ${fixed(k.auc ?? 0)}`).join('; ')})` : ` (AUC ${fixed(group?.auc ?? 0)})`;
      found.push({ code: 'time-limit', severity: 'fails', text: `pays more for waiting out the time limit${which} than for ${success}` });
    }
  }
  const ending = screen.successEnding;
  if (ending !== null && ending.lastStep <= ending.otherSteps + 1e-9 * Math.max(1, Math.abs(ending.otherSteps))) {
    found.push({ code: 'no-goal', severity: 'warns', text: `never pays for ${success} itself: the step that ends a success pays ${num(ending.lastStep)}, no more than an ordinary step (${num(ending.otherSteps)} on average)` });
  }
  return [...found, ...termFindings(screen)];
}

/** It does not rank the successes above the failures: a finding that fails it. */
export function failsScreen(screen: Screen): boolean {
  return screenFindings(screen).some((f) => f.severity === 'fails');
}

/** What the screen says of it in one line: the AUC, then its findings' words. */
export function screenLine(screen: Screen): string {
  const words = screenSentences(screen);
  // Without an AUC the findings begin with why (a bank of no successes): said once.
  if (screen.auc === null && words.length > 0) return words.join('; ');
  const auc = screen.auc === null ? 'no successes to compare with' : `AUC ${fixed(screen.auc)} of the bank's successes above its failures`;
  return words.length === 0 ? auc : `${auc}; ${words.join('; ')}`;
}

/** Two rewards that pay the same on every episode of the bank, to 1e-9 of the largest return: one reward. */
export function sameOnBank(a: Screen, b: Screen): boolean {
  if (a.returns.length !== b.returns.length || a.returns.length === 0) return false;
  // Both in the larger of their units (Screen.returnsExponent), so that neither overflows.
  const [ea, eb] = [a.returnsExponent ?? 0, b.returnsExponent ?? 0];
  const top = Math.max(ea, eb);
  const [ra, rb] = [a.returns.map((r) => r * 2 ** (ea - top)), b.returns.map((r) => r * 2 ** (eb - top))];
  const scale = Math.max(top === 0 ? 1 : 0, ...ra.map(Math.abs), ...rb.map(Math.abs));
  return ra.every((r, i) => Math.abs(r - rb[i]) <= 1e-9 * scale);
}

/** The sentences alone, in order. */
export function screenSentences(screen: Screen): string[] {
  return screenFindings(screen).map((f) => f.text);
}

/** "pays more for A (AUC a) and B (AUC b) than for X: term pays ... there, ... on a success". */
function prefersText(screen: Screen, kinds: ScreenKind[]): string {
  const listed = kinds.map((k) => `${k.words} (AUC ${fixed(k.auc ?? 0)})`);
  const list = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} and ${listed[listed.length - 1]}`;
  const base = `pays more for ${list} than for ${screen.successWords}`;
  if (screen.terms.length < 2) return base;
  // The term that pays the most preferred failure most above what it pays a success.
  const kind = kinds[0];
  const successPolicies = screen.kinds.filter((k) => k.kind === 'success');
  const onSuccess = (byPolicy: Record<string, number>) =>
    successPolicies.reduce((n, k) => n + (byPolicy[k.policy] ?? 0) * k.episodes, 0) / Math.max(1, successPolicies.reduce((n, k) => n + k.episodes, 0));
  const gaps = screen.terms.map((t) => ({ t, there: t.byPolicy[kind.policy] ?? 0, success: onSuccess(t.byPolicy) }));
  const top = gaps.sort((a, b) => (b.there - b.success) - (a.there - a.success))[0];
  return `${base}: ${top.t.name} pays ${num(top.there)} on ${kind.words}, ${num(top.success)} on a success`;
}

/** Most successes end before the time limit (by termination). */
function successesTerminate(screen: Screen): boolean {
  return screen.successEnding !== null;
}

function termFindings(screen: Screen): ScreenFinding[] {
  const found: ScreenFinding[] = [];
  const { terms } = screen;
  const top = [...terms].sort((a, b) => b.share - a.share)[0];
  const constant = screen.constantTerm;
  if (screen.constantStep !== null) {
    // A reward that is one constant pays by length alone: a flood where that favours the failures.
    if (screen.auc !== null && screen.auc <= 0.5) {
      found.push({ code: 'flood', severity: 'warns', text: `pays ${num(screen.constantStep)} on every step alike, whatever happens: only the episodes' lengths tell them apart, and the failures' lengths pay more` });
    }
  } else if (constant !== null && (constant.auc ?? 1) <= 0.5 && (constant.share >= DOMINANT_SHARE || (constant.aucWithout ?? 0) > (screen.auc ?? 1))) {
    const rest = constant.aucWithout === null ? '' : ` (AUC ${fixed(screen.auc ?? 0)} with it, ${fixed(constant.aucWithout)} without it)`;
    found.push({ code: 'flood', severity: 'warns', text: `a constant ${constant.name} of ${num(constant.value)} on every step, ${pct(constant.share)} of the total, floods the terms that tell episodes apart${rest}` });
  } else if (terms.length >= 2 && top.share >= DOMINANT_SHARE && !top.constant) {
    found.push({ code: 'dominant', severity: 'warns', text: `one term, ${top.name}, is ${pct(top.share)} of the total` });
  }
  const { meanAbsStep, environmentStep } = screen.scale;
  if (environmentStep > 0 && meanAbsStep > 0 && (meanAbsStep > SCALE_RATIO * environmentStep || meanAbsStep * SCALE_RATIO < environmentStep)) {
    found.push({ code: 'scale', severity: 'warns', text: `pays about ${num(meanAbsStep)} a step, ${num(meanAbsStep / environmentStep)} times the environment's own reward (about ${num(environmentStep)})` });
  }
  return found;
}

function fixed(x: number): string {
  return x.toFixed(2);
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** Three significant digits, without exponent noise for everyday sizes. */
function num(x: number): string {
  if (x === 0) return '0';
  const abs = Math.abs(x);
  return abs >= 1e5 || abs < 1e-3 ? x.toExponential(1) : Number(x.toPrecision(3)).toString();
}
