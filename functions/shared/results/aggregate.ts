/**
 * From seed-runs to a candidate's score: the mean success over seeds (a failed seed counts 0),
 * then the task's progress (its own measure of how far the greedy episodes got, Eureka's fitness),
 * then the task's tie-break (fewer steps in the successful episodes, where it says so), then how
 * early it learned. Never a reward's return: for a behaviour the robot's own reward pays for
 * something else. Pure functions: Reflect and Publish both rank with them.
 */
import type { TieBreak } from '../../../tasks/contract.ts';
import type { Outcome, SeedResult, SeedSummary, TermStats } from '../search/types.ts';
import type { BestPointer, CandidateRecord, ProposedCandidate, RaceRecord, StoppedAt } from '../store/records.ts';

export function aggregateCandidate(
  candidate: ProposedCandidate,
  generation: number,
  summaries: SeedSummary[],
  results: SeedResult[],
  check: CandidateRecord['check'] = null,
  race: Pick<RaceRecord, 'schedule'> | null = null,
): CandidateRecord {
  const seeds = [...summaries].sort((a, b) => a.seed - b.seed);
  const failed = seeds.find((s) => s.outcome !== 'trained' && s.outcome !== 'stopped');
  // A seed the race stopped counts with the rung's result: it trained, to a share of the budget.
  const trained = results.filter((r) => r.outcome === 'trained' || r.outcome === 'stopped');
  const stoppedSeed = seeds.find((s) => s.outcome === 'stopped');
  const stopped = stoppedSeed ? stoppedAt(stoppedSeed, race) : null;
  return {
    ...candidate,
    generation,
    success: mean(seeds.map((s) => (ran(s) ? s.success : 0))),
    meanSuccessSteps: meanOrNull(seeds.map((s) => s.meanSuccessSteps)),
    meanReturn: meanOrNull(seeds.map((s) => (ran(s) ? s.meanReturn : null))),
    progress: meanOrNull(seeds.map((s) => (ran(s) ? s.progress ?? null : null))),
    outcome: (failed?.outcome ?? stoppedSeed?.outcome ?? 'trained') as Outcome,
    reason: failed ? `seed ${failed.seed}: ${failed.reason}` : stoppedSeed?.reason ?? '',
    seeds: seeds.map(({ seed, success, outcome, reason, meanSuccessSteps, meanReturn, progress, stepsTrained, wallSeconds }) =>
      ({ seed, success, outcome, reason, meanSuccessSteps, meanReturn, progress: progress ?? null, stepsTrained, ...(wallSeconds === undefined ? {} : { wallSeconds }) })),
    terms: averageTerms(trained.map((r) => r.terms)),
    episodes: trained.flatMap((r) => (r.episodes ? [{ seed: r.seed, ...r.episodes }] : [])).sort((a, b) => a.seed - b.seed),
    trainSuccessSeries: averageSeries(trained.map((r) => r.trainSuccessSeries)),
    trainSuccessArea: meanOrNull(trained.map((r) => r.trainSuccessArea ?? null)),
    stepsToHalfSuccess: meanOrNull(trained.map((r) => r.stepsToHalfSuccess ?? null)),
    stepsTrained: seeds.reduce((n, s) => n + s.stepsTrained, 0),
    stopped,
    check: check === null ? null : { verdict: check.verdict, reason: check.reason },
  };
}

/** What ranking reads of a candidate. */
export interface Score {
  success: number;
  /** The task's progress, mean over the seeds that trained (absent: a record from before progress, ranked as unmeasured). */
  progress?: number | null;
  meanSuccessSteps: number | null;
  meanReturn: number | null;
  /** How early it learned (area under its training success curve); absent counts as not measured. */
  trainSuccessArea?: number | null;
}

/** Nulls (nothing measured) last; otherwise ascending or descending. Never NaN. */
function byValue(a: number | null, b: number | null, order: 'ascending' | 'descending'): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a < b) === (order === 'ascending') ? -1 : 1;
}

/**
 * Best first by score alone: higher mean success, then higher progress, then fewer steps in the
 * successful episodes where the task's tie-break asks for it, then how early it learned (several
 * rewards that all solve the task: the one that solved it sooner). No reward's return takes part.
 * 0 means the scores are equal in every respect.
 */
export function compareScores(a: Score, b: Score, tieBreak: TieBreak): number {
  const bySuccess = byValue(a.success, b.success, 'descending');
  const byProgress = byValue(a.progress ?? null, b.progress ?? null, 'descending');
  const bySteps = tieBreak === 'fewer-steps' ? byValue(a.meanSuccessSteps, b.meanSuccessSteps, 'ascending') : 0;
  const byLearning = byValue(a.trainSuccessArea ?? null, b.trainSuccessArea ?? null, 'descending');
  return bySuccess || byProgress || bySteps || byLearning;
}

/** A total, deterministic order: the score, then the earlier generation, then the candidate id. */
export function compareCandidates(
  a: Score & { generation: number; candidateId: string },
  b: Score & { generation: number; candidateId: string },
  tieBreak: TieBreak,
): number {
  return compareScores(a, b, tieBreak) || a.generation - b.generation || (a.candidateId < b.candidateId ? -1 : a.candidateId > b.candidateId ? 1 : 0);
}

export function pointerOf(c: CandidateRecord): BestPointer {
  return {
    generation: c.generation, candidateId: c.candidateId, name: c.name, success: c.success, progress: c.progress,
    meanSuccessSteps: c.meanSuccessSteps, meanReturn: c.meanReturn, trainSuccessArea: c.trainSuccessArea,
  };
}

/**
 * How far a candidate got, for the generation's order: those trained to the budget first, then
 * those the race stopped (the later the rung, the better), then those that never trained.
 */
export function stageOf(c: { seeds: Array<{ outcome: string }>; stopped?: StoppedAt | null }): number {
  if (c.seeds.some((s) => s.outcome === 'trained')) return 0;
  return c.stopped ? 1 / (1 + c.stopped.rung) : 1;
}

/** The generation's order: the stage, then the score (compareCandidates). */
type Ranked = Score & { generation: number; candidateId: string; seeds: Array<{ outcome: string }>; stopped?: StoppedAt | null };

export function compareRecords(a: Ranked, b: Ranked, tieBreak: TieBreak): number {
  return stageOf(a) - stageOf(b) || compareCandidates(a, b, tieBreak);
}

/** A seed-run that trained: to its target, or until the race stopped it (not one that faulted). */
export const ran = (s: { outcome: string }): boolean => s.outcome === 'trained' || s.outcome === 'stopped';

/** The rung a stopped seed-run's steps fall on, in the generation's race schedule. */
function stoppedAt(s: SeedSummary, race: Pick<RaceRecord, 'schedule'> | null): StoppedAt {
  const schedule = race?.schedule ?? [s.stepsTrained];
  const index = schedule.indexOf(s.stepsTrained);
  const budget = schedule[schedule.length - 1];
  return { rung: index + 1, rungs: schedule.length, steps: s.stepsTrained, share: s.stepsTrained / budget };
}

/** A term's name is the candidate's text: read only own properties (`toString` is a name too). */
function averageTerms(all: Array<Record<string, TermStats>>): Record<string, TermStats> {
  const names = [...new Set(all.flatMap((t) => Object.keys(t)))];
  return Object.fromEntries(names.map((name) => {
    const present = all.flatMap((t) => (Object.hasOwn(t, name) ? [t[name]] : []));
    const abs = present.flatMap((t) => (t.abs ? [t.abs] : []));
    return [name, {
      ...averageStats(present),
      // Only where every seed measured it (a result of an older trainer has none).
      ...(abs.length === present.length ? { abs: averageStats(abs) } : {}),
    }];
  }));
}

function averageStats(all: Array<Pick<TermStats, 'early' | 'late' | 'series'>>): Pick<TermStats, 'early' | 'late' | 'series'> {
  return { early: mean(all.map((t) => t.early)), late: mean(all.map((t) => t.late)), series: averageSeries(all.map((t) => t.series)) };
}

function averageSeries(all: number[][]): number[] {
  const length = Math.max(0, ...all.map((s) => s.length));
  return Array.from({ length }, (_, k) => mean(all.map((s) => s[k]).filter((x) => x !== undefined)));
}

export function mean(xs: number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** The mean of the measured values; null when none was measured. */
export function meanOrNull(xs: Array<number | null>): number | null {
  const measured = xs.filter((x): x is number => x !== null);
  return measured.length > 0 ? mean(measured) : null;
}
