/**
 * The Eureka-style reflection (DESIGN §6): what a proposer is told about the search so far. The
 * same text goes into the model's prompt and the same diagnostics guide the offline proposer's
 * mutations, so both proposers read the training statistics in one way.
 */
import type { Task } from '../../tasks/contract.ts';
import type { Outcome, TermStats } from './types.ts';

/** What the reflection says of a task: its success test and diagnostic in words. */
export type ReflectionTask = Pick<Task, 'success' | 'diagnostic' | 'tieBreak'>;

/** A candidate reward function: JavaScript source defining computeReward. */
export interface Candidate {
  name: string;
  idea: string;
  code: string;
}

/** The best reward so far with its statistics aggregated over seeds (plain data, as stored). */
export interface ReflectionBest {
  candidate: Candidate;
  generation: number;
  /** Mean task metric over seeds (a failed seed counts 0). */
  success: number;
  /** The task metric of each seed-run, in seed order. */
  seeds: Array<{ seed: number; success: number; outcome: Outcome; reason: string }>;
  /** Mean steps of the successful evaluation episodes (null when none succeeded). */
  meanSuccessSteps: number | null;
  /** Mean return on the environment's own reward (null when no seed trained). */
  meanReturn: number | null;
  /** The task's own diagnostic (null when no seed trained). */
  diagnostic: number | null;
  /** Per-term statistics, averaged over the trained seeds. */
  terms: Record<string, TermStats>;
  /** Training success at 10 checkpoints, averaged over the trained seeds. */
  trainSuccessSeries: number[];
}

/** One row of a generation's scoreboard. */
export interface ScoreboardEntry {
  name: string;
  idea: string;
  success: number;
  /** 'trained' when every seed trained; otherwise the first failure's outcome. */
  outcome: Outcome;
  /** Empty when trained; otherwise what went wrong. */
  reason: string;
}

/** The best candidate of one generation and the best metric so far after it. */
export interface GenerationBest {
  generation: number;
  name: string;
  success: number;
  bestSoFar: number;
}

export interface TermDiagnostics {
  /** Terms whose values stay nearly identical through training (includes the all-zero ones). */
  constant: string[];
  /** Terms that are zero throughout training. */
  zero: string[];
  /** Terms whose |late mean| is much larger than every other non-zero term's. */
  dominating: string[];
  /** Non-zero terms whose |late mean| is tiny next to the largest term's. */
  tiny: string[];
}

export const DIAGNOSTIC_THRESHOLDS = {
  /** Below this magnitude a value counts as zero. */
  zero: 1e-9,
  /** A series whose spread is below this share of its magnitude is constant. */
  constantSpread: 0.02,
  /** A term dominates when its |late mean| is this many times the largest other one. */
  dominanceRatio: 10,
  /** A term is tiny when its |late mean| is below this share of the largest one. */
  tinyRatio: 0.01,
} as const;

/** Which terms are constant, zero, dominating or tiny: pure, used by the text and the offline proposer. */
export function termDiagnostics(terms: Record<string, TermStats>): TermDiagnostics {
  const t = DIAGNOSTIC_THRESHOLDS;
  const names = Object.keys(terms);
  const late = new Map(names.map((n) => [n, Math.abs(terms[n].late)]));
  const result: TermDiagnostics = { constant: [], zero: [], dominating: [], tiny: [] };
  for (const name of names) {
    const { early, late: lateMean, series } = terms[name];
    const values = (series.length > 0 ? series : [early, lateMean]).filter(Number.isFinite);
    const magnitude = Math.max(0, ...values.map(Math.abs));
    const spread = values.length > 0 ? Math.max(...values) - Math.min(...values) : 0;
    if (magnitude < t.zero) result.zero.push(name);
    if (magnitude < t.zero || spread <= t.constantSpread * magnitude) result.constant.push(name);
  }
  const largest = Math.max(0, ...late.values());
  for (const name of names) {
    const own = late.get(name) ?? 0;
    if (own < t.zero) continue;
    const others = names.filter((n) => n !== name).map((n) => late.get(n) ?? 0).filter((m) => m >= t.zero);
    if (others.length > 0 && own > t.dominanceRatio * Math.max(...others)) result.dominating.push(name);
    if (own < t.tinyRatio * largest) result.tiny.push(name);
  }
  return result;
}

/** Eureka's number format for series: two decimals, more significant digits for small values. */
export function formatValue(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0 || Math.abs(x) >= 0.01) return x.toFixed(2);
  return x.toPrecision(2);
}

function seriesLine(label: string, series: number[]): string {
  if (series.length === 0) return `${label}: [] (no data)`;
  const quoted = series.map((x) => `'${formatValue(x)}'`).join(', ');
  const mean = series.reduce((a, b) => a + b, 0) / series.length;
  return `${label}: [${quoted}], Max: ${formatValue(Math.max(...series))}, Mean: ${formatValue(mean)}, Min: ${formatValue(Math.min(...series))}`;
}

const ADVICE = [
  'Please carefully analyze the policy feedback and write new, improved reward functions that can better solve the task. Some helpful tips for analyzing the policy feedback:',
  '  (1) If the success rates are always near zero, then you must rewrite the entire reward function.',
  '  (2) If the values for a certain reward term are near identical throughout, then this means RL is not able to optimize this term as it is written. You may consider',
  '      (a) changing its scale,',
  '      (b) re-writing the term, or',
  '      (c) discarding the term.',
  '  (3) If some reward terms\' magnitude is significantly larger than the others\', then you must re-scale its values to a proper range.',
  'Please analyze each existing reward term in the suggested manner above first, and then write the reward function code.',
].join('\n');

function diagnosticsLines(d: TermDiagnostics): string[] {
  const lines: string[] = [];
  for (const n of d.zero) lines.push(`- ${n} is zero throughout training: it never fires or is not being optimized.`);
  for (const n of d.constant.filter((x) => !d.zero.includes(x))) lines.push(`- ${n} is nearly constant: RL cannot optimize it as written.`);
  for (const n of d.dominating) lines.push(`- ${n} dominates the total: its late mean is over ${DIAGNOSTIC_THRESHOLDS.dominanceRatio}x every other term's.`);
  for (const n of d.tiny) lines.push(`- ${n} is tiny next to the largest term: it has almost no influence.`);
  return lines;
}

/** "mean steps of the successful episodes: 117.4; mean return: -117.4; mean highest position: 0.52 (…)". */
function measuresLine(task: ReflectionTask, best: ReflectionBest): string {
  const steps = best.meanSuccessSteps === null ? 'n/a (no episode succeeded)' : best.meanSuccessSteps.toFixed(1);
  const ret = best.meanReturn === null ? 'n/a' : formatValue(best.meanReturn);
  const diagnostic = best.diagnostic === null ? 'n/a' : task.diagnostic.format(best.diagnostic);
  return `Mean success: ${best.success.toFixed(2)}; mean steps of the successful episodes: ${steps}; ` +
    `mean return on the environment's own reward: ${ret}; ${task.diagnostic.label}: ${diagnostic}.`;
}

function bestSection(task: ReflectionTask, best: ReflectionBest): string[] {
  const c = best.candidate;
  const seeds = best.seeds
    .map((s) => `seed ${s.seed}: ${s.success.toFixed(2)}` + (s.outcome === 'trained' ? '' : ` (${s.outcome}: ${s.reason})`))
    .join(', ');
  const lines = [
    `## Best reward function so far: ${c.name} (generation ${best.generation})`,
    `Idea: ${c.idea}`,
    '```javascript',
    c.code.trimEnd(),
    '```',
    `Task metric (share of greedy evaluation episodes that ${task.success.clause}) per seed: ${seeds}.`,
    measuresLine(task, best),
    '',
    `We trained a PPO policy using this reward function and tracked the mean value per step of each reward term, and the share of training episodes that ${task.success.clause}, at 10 checkpoints during training, with the maximum, mean and minimum of each series:`,
  ];
  for (const [name, stats] of Object.entries(best.terms)) {
    lines.push(`${seriesLine(name, stats.series)} (early mean ${formatValue(stats.early)}, late mean ${formatValue(stats.late)})`);
  }
  lines.push(seriesLine('training success', best.trainSuccessSeries));
  const diagnosed = diagnosticsLines(termDiagnostics(best.terms));
  if (diagnosed.length > 0) lines.push('', 'What the statistics show:', ...diagnosed);
  return lines;
}

function scoreboardSection(scoreboard: ScoreboardEntry[]): string[] {
  if (scoreboard.length === 0) return [];
  const lines = ['## Last generation\'s candidates (name | success | outcome | idea)'];
  if (scoreboard.some((e) => e.outcome === 'stopped')) {
    lines.push('(A candidate marked "stopped" was raced: it trained only to the share of the budget it names, lost there to better ones and was stopped; its success is its score at that point, not a fully trained one.)');
  }
  for (const e of scoreboard) {
    const outcome = e.outcome === 'trained' ? 'trained' : `${e.outcome}: ${e.reason}`;
    lines.push(`- ${e.name} | ${e.success.toFixed(2)} | ${outcome} | ${e.idea}`);
  }
  return lines;
}

function historySection(bestByGeneration: GenerationBest[]): string[] {
  if (bestByGeneration.length === 0) return [];
  const lines = ['## Best task metric by generation'];
  for (const g of bestByGeneration) {
    lines.push(`- generation ${g.generation}: ${g.success.toFixed(2)} (${g.name}); best so far ${g.bestSoFar.toFixed(2)}`);
  }
  return lines;
}

/** The reflection given to a proposer from generation 2 on. */
export function reflectionText(
  task: ReflectionTask,
  best: ReflectionBest | null,
  scoreboard: ScoreboardEntry[],
  bestByGeneration: GenerationBest[],
): string {
  const sections: string[][] = [
    best === null ? ['## Best reward function so far', 'No candidate has trained successfully yet.'] : bestSection(task, best),
    [ADVICE],
    scoreboardSection(scoreboard),
    historySection(bestByGeneration),
  ];
  return sections.filter((s) => s.length > 0).map((s) => s.join('\n')).join('\n\n') + '\n';
}
