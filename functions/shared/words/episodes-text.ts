/**
 * The reflection's account of what the episodes did: the training episodes' length, endings and
 * return on the environment's own reward at the 10 checkpoints, and the evaluation episodes'
 * endings, per seed. Over the seeds as one mean while they agree; seed by seed when they do not
 * (a 0.9 / 0 / 0.85 run is not a 0.58 run: one seed learned something else).
 */
import type { EpisodeEndings, SeedEpisodes } from '../search/types.ts';
import { formatShare, formatValue, seriesLine } from './reflection-format.ts';

export type SeedsEpisodes = Array<{ seed: number } & SeedEpisodes>;

/** Seeds disagree when a share of their evaluation or last training episodes differs by this much or more. */
export const SEEDS_DISAGREE = 0.25;

type Share = 'success' | 'terminated' | 'truncated';
const SHARES: Share[] = ['success', 'terminated', 'truncated'];

export function seedsDisagree(episodes: SeedsEpisodes): boolean {
  const spread = (xs: Array<number | null>) => {
    const known = xs.filter((x): x is number => x !== null);
    return known.length < 2 ? 0 : Math.max(...known) - Math.min(...known);
  };
  const last = (e: SeedEpisodes) => [...e.training].reverse().find((t) => t.episodes > 0);
  return SHARES.some((share) => spread(episodes.map((e) => e.evaluation[share])) >= SEEDS_DISAGREE ||
    spread(episodes.map((e) => last(e)?.[share] ?? null)) >= SEEDS_DISAGREE);
}

/** The checkpoint-wise mean over seeds of one figure (a checkpoint no seed measured stays unmeasured). */
export function meanSeries(episodes: SeedsEpisodes, pick: (t: EpisodeEndings) => number | null): Array<number | null> {
  const length = Math.max(0, ...episodes.map((e) => e.training.length));
  return Array.from({ length }, (_, k) => {
    const known = episodes.map((e) => (e.training[k] ? pick(e.training[k]) : null)).filter((x): x is number => x !== null);
    return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
  });
}

function trainingLines(episodes: SeedsEpisodes, indent: string): string[] {
  const series = (pick: (t: EpisodeEndings) => number | null) => meanSeries(episodes, pick);
  return [
    `${indent}${seriesLine('episode length', series((t) => t.meanLength))}`,
    `${indent}${seriesLine('succeeded', series((t) => t.success), formatShare)}`,
    `${indent}${seriesLine('terminated otherwise', series((t) => t.terminated), formatShare)}`,
    `${indent}${seriesLine('cut at the time limit', series((t) => t.truncated), formatShare)}`,
    `${indent}${seriesLine('return on the environment\'s reward', series((t) => t.meanReturn))}`,
  ];
}

/** "20 episodes: 85% succeeded, 10% terminated otherwise, 5% cut at the time limit; mean length 245; mean return 180". */
export function endingsText(e: EpisodeEndings): string {
  if (e.episodes === 0) return 'no episode ended';
  const share = (x: number | null) => (x === null ? '?' : formatShare(x));
  const measure = (label: string, x: number | null) => (x === null ? '' : `; ${label} ${formatValue(x)}`);
  return `${e.episodes} episode${e.episodes === 1 ? '' : 's'}: ${share(e.success)} succeeded, ${share(e.terminated)} terminated otherwise, ` +
    `${share(e.truncated)} cut at the time limit${measure('mean length', e.meanLength)}${measure('mean return on the environment\'s reward', e.meanReturn)}`;
}

/** The section's lines (none when the records hold no episode statistics: an older search). */
export function episodesLines(clause: string, episodes: SeedsEpisodes): string[] {
  if (episodes.length === 0) return [];
  const disagree = episodes.length > 1 && seedsDisagree(episodes);
  const over = episodes.length === 1 ? `seed ${episodes[0].seed}` : disagree ? 'each seed on its own: the seeds disagree' : `the mean over ${episodes.length} seeds`;
  const lines = [
    'How the episodes ended. Training episodes, at the same 10 checkpoints (the episodes that ended in each tenth of training), ' +
      `${over}: their mean length; the share that ${clause} (succeeded), that the environment ended otherwise (terminated otherwise), ` +
      'and that were cut at the time limit; and their mean return on the environment\'s own reward:',
  ];
  if (disagree) {
    for (const e of episodes) lines.push(`seed ${e.seed}:`, ...trainingLines([e], '  '));
  } else {
    lines.push(...trainingLines(episodes, ''));
  }
  lines.push('Evaluation episodes (the greedy policy, from start states never used in training):');
  for (const e of episodes) lines.push(`- seed ${e.seed}: ${endingsText(e.evaluation)}`);
  return lines;
}
