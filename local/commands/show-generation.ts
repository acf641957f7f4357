/**
 * `eureka show ID --generation N`: one generation as the proposer and the search saw it: the
 * proposer's analysis (what it read in the feedback and what it changed, and why) for the
 * proposal and the repair, every candidate with its score, outcome and the screen's words, and
 * the reflection written after it (what the next generation's proposer read).
 */
import type { SearchStore } from '../../functions/shared/store/search-store.ts';
import { formatValue } from '../../functions/shared/words/reflection.ts';
import { UsageError } from '../flags.ts';

export interface GenerationReport {
  searchId: string;
  generation: number;
  /** The proposer's analysis of the proposal and of the repair ('' where it wrote none; null where there was no such request). */
  analysis: { proposal: string | null; repair: string | null };
  notes: string[];
  /** Each candidate; progress is the task's, mean over its trained seeds (null: none trained, or an older record). */
  rows: Array<{ name: string; success: number; progress: number | null; outcome: string; reason: string; idea: string; screen: string | null }>;
  /** The reflection Reflect wrote after it; null before it reflected. */
  reflection: string | null;
}

export async function readGeneration(store: SearchStore, searchId: string, generation: number): Promise<GenerationReport> {
  const meta = await store.meta(searchId).catch(() => { throw new UsageError(`no search ${searchId}`); });
  if (generation > meta.config.generations) throw new UsageError(`--generation: search ${searchId} has ${meta.config.generations} generation${meta.config.generations === 1 ? '' : 's'} (got ${generation})`);
  const [proposal, repair, summary] = await Promise.all([
    store.answer(searchId, generation, 'proposal'), store.answer(searchId, generation, 'repair'), store.summary(searchId, generation),
  ]);
  if (!proposal) throw new UsageError(`--generation: generation ${generation} of ${searchId} has not been proposed yet`);
  return {
    searchId, generation,
    analysis: { proposal: proposal.analysis ?? '', repair: repair ? repair.analysis ?? '' : null },
    notes: [...(proposal.notes ?? []), ...(repair?.notes ?? [])],
    rows: (summary?.scoreboard ?? []).map((r) => ({ name: r.name, success: r.success, progress: r.progress ?? null, outcome: r.outcome, reason: r.reason, idea: r.idea, screen: r.screen ?? null })),
    reflection: summary?.reflection ?? null,
  };
}

export function formatGeneration(g: GenerationReport): string {
  const lines = [`search ${g.searchId}, generation ${g.generation}`, '', 'The proposer\'s analysis:', g.analysis.proposal || '(none written)'];
  if (g.analysis.repair !== null) lines.push('', 'Its analysis of the repair:', g.analysis.repair || '(none written)');
  if (g.notes.length > 0) lines.push('', ...g.notes.map((n) => `note: ${n}`));
  // Progress is what the race ranked by where no candidate had succeeded yet: shown where it was kept.
  const measured = g.rows.some((r) => r.progress !== null);
  lines.push('', `Candidates (success, ${measured ? 'progress, ' : ''}outcome, name):`);
  for (const r of g.rows) {
    const progress = !measured ? '' : ` ${(r.progress === null ? '-' : formatValue(r.progress)).padStart(7)}`;
    lines.push(`  ${`${(r.success * 100).toFixed(0)}%`.padStart(5)}${progress} ${r.outcome.padEnd(7)} ${r.name}${r.reason ? `  (${r.reason})` : ''}`);
    lines.push(`        idea: ${r.idea}`);
    if (r.screen !== null) lines.push(`        screen: ${r.screen}`);
  }
  if (g.rows.length === 0) lines.push('  (not reflected yet)');
  lines.push('', 'The reflection written after it:', g.reflection ?? '(not reflected yet)');
  return `${lines.join('\n')}\n`;
}
