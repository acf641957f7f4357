/**
 * How the winner's episodes ended, in the card's words: a table of the training episodes (their
 * length, how they ended and their return on the environment's reward) in the first and the last
 * tenth of training and over it, then the evaluation episodes seed by seed. The same figures the
 * reflection gives the model (episodes-text.ts), which reads them as lists of numbers; a person
 * reads them here. Over the seeds as one mean while they agree, seed by seed when they do not.
 */
import { meanSeries, seedsDisagree, type SeedsEpisodes } from '../words/episodes-text.ts';
import { formatShare, formatValue } from '../words/reflection-format.ts';
import type { EpisodeEndings } from '../search/types.ts';
import { cardTask, type CardData } from './card-data.ts';

export interface EndingRow {
  /** "succeeded", or "seed 10001: succeeded" where the seeds disagree. */
  label: string;
  first: string;
  last: string;
  /** The figure at the 10 checkpoints (null: no episode ended there), for a sparkline. */
  series: Array<number | null>;
}

export interface Endings {
  /** Who the table is over: "the mean over 3 seeds", "seed 10000", "each seed on its own (they disagree)". */
  over: string;
  /** What "succeeded" means for the task. */
  successMeans: string;
  rows: EndingRow[];
  /** One sentence per seed on its evaluation episodes. */
  evaluation: Array<{ seed: number; text: string }>;
}

const FIGURES: Array<{ label: string; pick: (t: EpisodeEndings) => number | null; share: boolean }> = [
  { label: 'succeeded', pick: (t) => t.success, share: true },
  { label: 'ended otherwise', pick: (t) => t.terminated, share: true },
  { label: 'ran out of time', pick: (t) => t.truncated, share: true },
  { label: 'steps long, on average', pick: (t) => t.meanLength, share: false },
  { label: 'return on the environment\'s reward, on average', pick: (t) => t.meanReturn, share: false },
];

/** The winner's endings, or null when its results hold none (an older search). */
export function endingsOf(data: CardData): Endings | null {
  const episodes: SeedsEpisodes = data.winner.episodes ?? [];
  if (episodes.length === 0) return null;
  const disagree = episodes.length > 1 && seedsDisagree(episodes);
  const over = episodes.length === 1 ? `seed ${episodes[0].seed}` : disagree ? 'each seed on its own (they disagree)' : `the mean over ${episodes.length} seeds`;
  const groups = disagree ? episodes.map((e) => ({ prefix: `seed ${e.seed}: `, seeds: [e] })) : [{ prefix: '', seeds: episodes }];
  const rows = groups.flatMap(({ prefix, seeds }) => FIGURES.map((f) => {
    const series = meanSeries(seeds, f.pick);
    const measured = series.filter((x): x is number => x !== null && Number.isFinite(x));
    const show = (x: number | undefined) => (x === undefined ? '—' : f.share ? formatShare(x) : formatValue(x));
    return { label: `${prefix}${f.label}`, first: show(measured[0]), last: show(measured.at(-1)), series };
  }));
  return {
    over,
    successMeans: `they did ${cardTask(data).success.clause}`,
    rows,
    evaluation: episodes.map((e) => ({ seed: e.seed, text: evaluationText(e.evaluation) })),
  };
}

/** "of 20 episodes, 85% succeeded, 10% ended otherwise and 5% ran out of time; 245 steps long and 180 on the environment's reward, on average". */
function evaluationText(e: EpisodeEndings): string {
  if (e.episodes === 0) return 'no episode ended';
  const share = (x: number | null) => (x === null ? '?' : formatShare(x));
  const averages = [e.meanLength === null ? null : `${formatValue(e.meanLength)} steps long`, e.meanReturn === null ? null : `${formatValue(e.meanReturn)} on the environment's reward`]
    .filter((x): x is string => x !== null);
  return `of ${e.episodes} episode${e.episodes === 1 ? '' : 's'}, ${share(e.success)} succeeded, ${share(e.terminated)} ended otherwise and ${share(e.truncated)} ran out of time` +
    (averages.length === 0 ? '' : `; ${averages.join(' and ')}, on average`);
}
