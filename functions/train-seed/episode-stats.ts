/**
 * What the episodes did: how the training episodes that ended in each rollout ended (passed the
 * task's success test, were ended by the environment otherwise, or were cut at the time limit) and
 * their return on the environment's own reward; then, at the 10 checkpoints of training, the same
 * as shares and means; and the evaluation episodes' endings. Eureka shows its model episode lengths
 * and the ground-truth return; the endings say what a length alone cannot: a lander that hovers to
 * the time limit, a pole that falls early, a car that never reaches the flag.
 */
import type { Episode } from '../../tasks/contract.ts';
import type { EpisodeEndings } from '../shared/search/types.ts';
import { CHECKPOINTS } from './term-stats.ts';

/** A rollout's ended training episodes beyond what UpdateStats already counts (ended, succeeded, mean length). */
export interface RolloutEndings {
  /** Ended by the environment without passing the success test. */
  terminated: number;
  /** Cut at the time limit without passing it. */
  truncated: number;
  /** Sum of their returns on the environment's own reward. */
  returnSum: number;
}

/** Counts one rollout's ended training episodes; `take` hands the counts over and starts again. */
export class EndingCounter {
  private counts: RolloutEndings = { terminated: 0, truncated: 0, returnSum: 0 };

  add(episode: Episode, success: boolean): void {
    if (!success && episode.truncated) this.counts.truncated += 1;
    else if (!success) this.counts.terminated += 1;
    this.counts.returnSum += episode.return;
  }

  take(): RolloutEndings {
    const counts = this.counts;
    this.counts = { terminated: 0, truncated: 0, returnSum: 0 };
    return counts;
  }
}

/** What the endings are read from: one rollout's statistics (ppo.ts UpdateStats fits). */
export interface RolloutEpisodes {
  episodesEnded: number;
  episodesSucceeded: number;
  /** Mean length of the episodes that ended (null: none ended). */
  episodeLength: number | null;
  /** Absent in a checkpoint written before the trainer counted endings. */
  endings?: RolloutEndings;
}

/**
 * The training episodes' endings in each tenth of training: one entry per checkpoint, the episodes
 * that ended in that tenth's rollouts (`episodes: 0` where none did: nothing measured, no made-up 0).
 */
export function trainingEndings(updates: RolloutEpisodes[]): EpisodeEndings[] {
  const n = updates.length;
  return Array.from({ length: CHECKPOINTS }, (_, k) => {
    const start = Math.floor((k * n) / CHECKPOINTS);
    const end = Math.max(start + 1, Math.floor(((k + 1) * n) / CHECKPOINTS));
    return pooled(updates.slice(start, end));
  });
}

function pooled(updates: RolloutEpisodes[]): EpisodeEndings {
  let episodes = 0, succeeded = 0, terminated = 0, truncated = 0, lengthSum = 0, returnSum = 0;
  let counted = true;
  for (const u of updates) {
    episodes += u.episodesEnded;
    succeeded += u.episodesSucceeded;
    lengthSum += (u.episodeLength ?? 0) * u.episodesEnded;
    if (u.endings === undefined) counted = counted && u.episodesEnded === 0;
    terminated += u.endings?.terminated ?? 0;
    truncated += u.endings?.truncated ?? 0;
    returnSum += u.endings?.returnSum ?? 0;
  }
  if (episodes === 0) return NONE;
  const share = (x: number) => (counted ? x / episodes : null);
  return {
    episodes, success: succeeded / episodes, terminated: share(terminated), truncated: share(truncated),
    meanLength: lengthSum / episodes, meanReturn: share(returnSum),
  };
}

const NONE: EpisodeEndings = { episodes: 0, success: null, terminated: null, truncated: null, meanLength: null, meanReturn: null };

/** The evaluation episodes' endings (grade.ts). */
export function evaluationEndings(graded: Array<Pick<Episode, 'length' | 'return' | 'truncated'> & { success: boolean }>): EpisodeEndings {
  const episodes = graded.length;
  if (episodes === 0) return NONE;
  const count = (keep: (g: (typeof graded)[number]) => boolean) => graded.filter(keep).length / episodes;
  return {
    episodes,
    success: count((g) => g.success),
    terminated: count((g) => !g.success && !g.truncated),
    truncated: count((g) => !g.success && g.truncated),
    meanLength: graded.reduce((s, g) => s + g.length, 0) / episodes,
    meanReturn: graded.reduce((s, g) => s + g.return, 0) / episodes,
  };
}
