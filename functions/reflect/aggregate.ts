/**
 * From seed-runs to a candidate's score: the mean success over seeds (a failed seed counts 0),
 * then fewer steps to the flag. Pure functions: Reflect and Publish both rank with them.
 */
import type { Outcome, SeedResult, SeedSummary, TermStats } from '../shared/types.ts';
import type { BestPointer, CandidateRecord, ProposedCandidate } from '../shared/records.ts';

export function aggregateCandidate(
  candidate: ProposedCandidate,
  generation: number,
  summaries: SeedSummary[],
  results: SeedResult[],
): CandidateRecord {
  const seeds = [...summaries].sort((a, b) => a.seed - b.seed);
  const failed = seeds.find((s) => s.outcome !== 'trained');
  const steps = seeds.map((s) => s.meanStepsToFlag).filter((x): x is number => x !== null);
  const trained = results.filter((r) => r.outcome === 'trained');
  return {
    ...candidate,
    generation,
    success: mean(seeds.map((s) => (s.outcome === 'trained' ? s.success : 0))),
    meanStepsToFlag: steps.length > 0 ? mean(steps) : null,
    meanMaxPosition: mean(trained.map((r) => r.meanMaxPosition)),
    outcome: (failed?.outcome ?? 'trained') as Outcome,
    reason: failed ? `seed ${failed.seed}: ${failed.reason}` : '',
    seeds: seeds.map(({ seed, success, outcome, reason, meanStepsToFlag }) => ({ seed, success, outcome, reason, meanStepsToFlag })),
    terms: averageTerms(trained.map((r) => r.terms)),
    trainSuccessSeries: averageSeries(trained.map((r) => r.trainSuccessSeries)),
  };
}

/** Best first: higher mean success, then fewer steps to the flag (none counts as worst). */
export function compareCandidates(
  a: { success: number; meanStepsToFlag: number | null },
  b: { success: number; meanStepsToFlag: number | null },
): number {
  if (a.success !== b.success) return b.success - a.success;
  return (a.meanStepsToFlag ?? Infinity) - (b.meanStepsToFlag ?? Infinity);
}

export function pointerOf(c: CandidateRecord): BestPointer {
  return { generation: c.generation, candidateId: c.candidateId, name: c.name, success: c.success, meanStepsToFlag: c.meanStepsToFlag };
}

function averageTerms(all: Array<Record<string, TermStats>>): Record<string, TermStats> {
  const names = [...new Set(all.flatMap((t) => Object.keys(t)))];
  return Object.fromEntries(names.map((name) => {
    const present = all.map((t) => t[name]).filter((t): t is TermStats => t !== undefined);
    return [name, {
      early: mean(present.map((t) => t.early)),
      late: mean(present.map((t) => t.late)),
      series: averageSeries(present.map((t) => t.series)),
    }];
  }));
}

function averageSeries(all: number[][]): number[] {
  const length = Math.max(0, ...all.map((s) => s.length));
  return Array.from({ length }, (_, k) => mean(all.map((s) => s[k]).filter((x) => x !== undefined)));
}

export function mean(xs: number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
