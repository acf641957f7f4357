/**
 * The Eureka-style reflection (DESIGN §6): what a proposer is told about the search so far. The
 * same text goes into the model's prompt and the same flags (term-flags.ts) guide the offline
 * proposer's mutations, so both proposers read the training statistics in one way. Beyond
 * Eureka's feedback: each term's mean |value| beside its mean, how the episodes ended, the latest
 * generation's best when it fell short of the best so far, and the baselines as the line to beat.
 */
import type { Task } from '../../../tasks/contract.ts';
import { ENVIRONMENT_REWARD_ID, HUMAN_SHAPING_ID } from '../search/baselines.ts';
import { episodesLines, type SeedsEpisodes } from './episodes-text.ts';
import { formatValue, seriesLine } from './reflection-format.ts';
import { diagnosticsLines, termDiagnostics } from './term-flags.ts';
import type { Candidate, Outcome, TermStats } from '../search/types.ts';

export { formatValue } from './reflection-format.ts';
export { DIAGNOSTIC_THRESHOLDS, termDiagnostics, type TermDiagnostics } from './term-flags.ts';

/** What the reflection says of a task: its success test and progress in words. */
export type ReflectionTask = Pick<Task, 'success' | 'progress' | 'tieBreak'>;

/** How candidates are ranked after success, in words (the prompt and the line to beat say it). */
export function rankWords(task: ReflectionTask): string {
  const steps = task.tieBreak === 'fewer-steps' ? ', then fewer steps in the successful episodes' : '';
  return `higher progress (${task.progress.describe})${steps}, then how early in training it learned`;
}


/** A reward with its statistics aggregated over seeds (plain data, as stored): the best so far, or the latest generation's best. */
export interface ReflectionBest {
  candidate: Candidate;
  generation: number;
  /** Mean task metric over seeds (a failed seed counts 0). */
  success: number;
  /** The task metric and progress of each seed-run, in seed order (progress absent on older records). */
  seeds: Array<{ seed: number; success: number; progress?: number | null; outcome: Outcome; reason: string }>;
  /** Mean steps of the successful evaluation episodes (null when none succeeded). */
  meanSuccessSteps: number | null;
  /** Mean return on the environment's own reward (null when no seed trained). */
  meanReturn: number | null;
  /** The task's progress, mean over the trained seeds (null when no seed trained). */
  progress: number | null;
  /** Per-term statistics, averaged over the trained seeds. */
  terms: Record<string, TermStats>;
  /** Training success at 10 checkpoints, averaged over the trained seeds. */
  trainSuccessSeries: number[];
  /** How each trained seed's episodes ended (absent on older records). */
  episodes?: SeedsEpisodes;
  /** What the screen said of it before training, in words (absent: not screened). */
  screen?: string;
}

/** A baseline's score on the search's seeds: the line to beat. */
export interface BaselineScore {
  name: string;
  success: number;
  seeds: Array<{ seed: number; success: number; progress?: number | null }>;
  meanSuccessSteps: number | null;
  meanReturn: number | null;
  /** The task's progress, mean over the trained seeds (absent on older records). */
  progress?: number | null;
}

/** One row of a generation's scoreboard. */
export interface ScoreboardEntry {
  name: string;
  idea: string;
  success: number;
  /** The task's progress, mean over the trained seeds (null or absent: none trained, or an older record). */
  progress?: number | null;
  /** 'trained' when every seed trained; otherwise the first failure's outcome. */
  outcome: Outcome;
  /** Empty when trained; otherwise what went wrong. */
  reason: string;
  /** What the screen said of it before training, in words (absent: not screened). */
  screen?: string;
}

/** The best candidate of one generation and the best metric so far after it. */
export interface GenerationBest {
  generation: number;
  name: string;
  success: number;
  bestSoFar: number;
}

/** Everything the reflection reads. */
export interface Reflection {
  best: ReflectionBest | null;
  /** The latest generation's best when it is not the best so far (null or absent otherwise). */
  latest?: ReflectionBest | null;
  scoreboard: ScoreboardEntry[];
  bestByGeneration: GenerationBest[];
  /** The baselines on the search's seeds (absent or empty before they trained). */
  baselines?: BaselineScore[];
}

const ADVICE = [
  'How to read this feedback (after Eureka\'s advice), and what to do about it:',
  '  (1) If the success stays near zero throughout, rewrite the reward function as a whole rather than tuning it; the episodes\' lengths, endings and environment return say what the policy learned instead.',
  '  (2) A term marked constant is either a steady cost (the same every step, such as a time or fuel cost: it still shapes how long episodes pay to last, and the task\'s own return may charge it) or a term the policy cannot change as written. Check which: keep a steady cost that serves the task; rescale, rewrite or drop a term the policy cannot change.',
  '  (3) Sizes are mean absolute values per step. A term far larger than the others drowns them out: rescale it. A term far smaller has almost no influence. A potential difference (phi(next) - phi(now)) has a mean near 0 and can still be large at every step.',
  '  (4) Episodes that are mostly cut at the time limit mean the policy never ends them (it hovers, swings or waits); episodes that mostly end early without success mean it fails fast, or that the reward pays it to end them.',
  'In your analysis, go through each reward term and the episodes\' endings this way first, then write the reward functions.',
].join('\n');

/** "Mean success: 0.57; mean highest position: 0.52 (...); mean steps of the successful episodes: 117; mean return ...: -117". */
function measuresLine(task: ReflectionTask, best: ReflectionBest): string {
  const steps = best.meanSuccessSteps === null ? 'n/a (no episode succeeded)' : formatValue(best.meanSuccessSteps);
  const ret = best.meanReturn === null ? 'n/a' : formatValue(best.meanReturn);
  const progress = best.progress === null ? 'n/a' : task.progress.format(best.progress);
  return `Mean success: ${formatValue(best.success)}; progress, ${task.progress.label}: ${progress}; mean steps of the successful episodes: ${steps}; ` +
    `mean return on the environment's own reward (not what it is ranked by): ${ret}.`;
}

/** "seed 0: 3.21, seed 1: 0.4": each seed's progress, where the records kept it. */
function progressPerSeed(seeds: Array<{ seed: number; progress?: number | null }>): string | null {
  const measured = seeds.filter((s) => s.progress !== undefined && s.progress !== null);
  return measured.length === 0 ? null : measured.map((s) => `seed ${s.seed}: ${formatValue(s.progress as number)}`).join(', ');
}

function termLine(name: string, stats: TermStats): string {
  const size = stats.abs ? `; mean |value| per step early ${formatValue(stats.abs.early)}, late ${formatValue(stats.abs.late)}` : '';
  return `${seriesLine(name, stats.series)} (mean per step early ${formatValue(stats.early)}, late ${formatValue(stats.late)}${size})`;
}

function rewardSection(task: ReflectionTask, best: ReflectionBest, heading: string): string[] {
  const c = best.candidate;
  const seeds = best.seeds
    .map((s) => `seed ${s.seed}: ${formatValue(s.success)}` + (s.outcome === 'trained' ? '' : ` (${s.outcome}: ${s.reason})`))
    .join(', ');
  const lines = [
    `${heading}: ${c.name} (generation ${best.generation})`,
    `Idea: ${c.idea}`,
    '```javascript',
    c.code.trimEnd(),
    '```',
    `Task metric (share of greedy evaluation episodes that ${task.success.clause}) per seed: ${seeds}.`,
    ...(progressPerSeed(best.seeds) === null ? [] : [`Progress (${task.progress.describe}; mean over the greedy episodes) per seed: ${progressPerSeed(best.seeds)}.`]),
    measuresLine(task, best),
    '',
    'We trained a PPO policy using this reward function and tracked each reward term at 10 checkpoints during training: its mean value per step at each checkpoint (with the maximum, mean and minimum of that series), its mean per step early (first 10% of updates) and late (last 10%), and its mean absolute value per step, its size:',
  ];
  for (const [name, stats] of Object.entries(best.terms)) lines.push(termLine(name, stats));
  if (best.screen !== undefined) lines.push('', `Before training, the screen ran it over recorded episodes of this task (known successes and known failures): ${best.screen}.`);
  const episodes = episodesLines(task.success.clause, best.episodes ?? []);
  if (episodes.length > 0) lines.push('', ...episodes);
  else lines.push(seriesLine('training success', best.trainSuccessSeries));
  const flagged = diagnosticsLines(termDiagnostics(best.terms));
  if (flagged.length > 0) lines.push('', 'What the statistics show:', ...flagged);
  return lines;
}

function baselineLabel(name: string): string {
  if (name === ENVIRONMENT_REWARD_ID) return 'the environment\'s own reward';
  if (name === HUMAN_SHAPING_ID) return 'a person\'s shaping';
  return name;
}

function lineToBeatSection(task: ReflectionTask, baselines: BaselineScore[]): string[] {
  if (baselines.length === 0) return [];
  const lines = [
    '## The line to beat',
    'The two baselines trained on the same seeds, with the same budget and grading, as every candidate (their code is not shown: write your own):',
  ];
  for (const b of baselines) {
    const seeds = b.seeds.map((s) => `seed ${s.seed}: ${formatValue(s.success)}`).join(', ');
    const steps = b.meanSuccessSteps === null ? '' : `; mean steps of the successful episodes ${formatValue(b.meanSuccessSteps)}`;
    const ret = b.meanReturn === null ? '' : `; mean return on the environment's own reward ${formatValue(b.meanReturn)}`;
    const perSeed = progressPerSeed(b.seeds);
    const progress = perSeed === null ? '' : `; progress per seed ${perSeed}`;
    lines.push(`- ${b.name} (${baselineLabel(b.name)}): task metric ${formatValue(b.success)} (${seeds})${progress}${steps}${ret}.`);
  }
  lines.push(`These are scores on the search's own seeds, the only ones known while the search runs. After the last generation the winner and both baselines are trained again on fresh seeds, and the winner must beat the better baseline there; equal success is decided by ${rankWords(task)}.`);
  return lines;
}

function scoreboardSection(task: ReflectionTask, scoreboard: ScoreboardEntry[]): string[] {
  if (scoreboard.length === 0) return [];
  const screened = scoreboard.some((e) => e.screen !== undefined);
  // Progress is what the race cut by where success tied (every candidate at 0% on an early rung):
  // without it a stopped candidate's line cannot say how far behind it was.
  const measured = scoreboard.some((e) => e.progress !== undefined && e.progress !== null);
  const lines = [`## Last generation's candidates (name | success | ${measured ? 'progress | ' : ''}outcome | idea${screened ? ' | screen' : ''})`];
  if (measured) lines.push(`(Progress: ${task.progress.describe}; mean over the seeds that trained, "-" where none did.)`);
  if (screened) {
    lines.push('(The screen ran each reward, before training, over recorded successes and failures of this task: an AUC below 1 means some failure earned a higher discounted return than a success, and its words name which. A reward that prefers a failure teaches that failure.)');
  }
  if (scoreboard.some((e) => e.outcome === 'stopped')) {
    lines.push('(A candidate marked "stopped" was raced: it trained only to the share of the budget it names, lost there to better ones and was stopped; its scores are those at that point, not a fully trained one\'s.)');
  }
  for (const e of scoreboard) {
    const outcome = e.outcome === 'trained' ? 'trained' : `${e.outcome}: ${e.reason}`;
    const progress = !measured ? '' : `${e.progress === undefined || e.progress === null ? '-' : formatValue(e.progress)} | `;
    lines.push(`- ${e.name} | ${formatValue(e.success)} | ${progress}${outcome} | ${e.idea}${screened ? ` | ${e.screen ?? 'not screened'}` : ''}`);
  }
  return lines;
}

function historySection(bestByGeneration: GenerationBest[]): string[] {
  if (bestByGeneration.length === 0) return [];
  const lines = ['## Best task metric by generation'];
  for (const g of bestByGeneration) {
    lines.push(`- generation ${g.generation}: ${formatValue(g.success)} (${g.name}); best so far ${formatValue(g.bestSoFar)}`);
  }
  return lines;
}

/** The reflection given to a proposer from generation 2 on. */
export function reflectionText(task: ReflectionTask, r: Reflection): string {
  const latest = r.latest ?? null;
  const sections: string[][] = [
    r.best === null ? ['## Best reward function so far', 'No candidate has trained successfully yet.'] : rewardSection(task, r.best, '## Best reward function so far'),
    latest === null ? [] : rewardSection(task, latest, '## The latest generation\'s best, below the best so far'),
    lineToBeatSection(task, r.baselines ?? []),
    [ADVICE],
    scoreboardSection(task, r.scoreboard),
    historySection(r.bestByGeneration),
  ];
  return sections.filter((s) => s.length > 0).map((s) => s.join('\n')).join('\n\n') + '\n';
}
