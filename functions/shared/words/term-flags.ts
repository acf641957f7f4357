/**
 * What the statistics say of each reward term, for the model's reflection and the offline
 * proposer's mutations alike. Sizes are the mean absolute value per step: a potential difference
 * (phi(next) - phi(now)) telescopes to a mean near 0 however large its steps are, so a flag on the
 * mean would call it tiny. A constant term is said to be constant and no more: a steady cost (fuel,
 * time) is constant too, and the grading return may charge it, so the model is asked to check.
 */
import type { TermStats } from '../search/types.ts';

export interface TermDiagnostics {
  /** Terms whose mean per step stays nearly the same through training (the all-zero ones included). */
  constant: string[];
  /** Terms that are zero throughout training. */
  zero: string[];
  /** Terms whose late mean |value| is much larger than every other non-zero term's. */
  dominating: string[];
  /** Non-zero terms whose late mean |value| is tiny next to the largest term's. */
  tiny: string[];
}

export const DIAGNOSTIC_THRESHOLDS = {
  /** Below this magnitude a value counts as zero. */
  zero: 1e-9,
  /** A series whose spread is below this share of its magnitude is constant. */
  constantSpread: 0.02,
  /** A term dominates when its late mean |value| is this many times the largest other one. */
  dominanceRatio: 10,
  /** A term is tiny when its late mean |value| is below this share of the largest one. */
  tinyRatio: 0.01,
} as const;

/** A term's size late in training: its mean |value| per step (|mean| on a result that has no absolute values). */
export function lateSize(stats: TermStats): number {
  return stats.abs?.late ?? Math.abs(stats.late);
}

/** Which terms are constant, zero, dominating or tiny: pure, used by the text and the offline proposer. */
export function termDiagnostics(terms: Record<string, TermStats>): TermDiagnostics {
  const t = DIAGNOSTIC_THRESHOLDS;
  const names = Object.keys(terms);
  const late = new Map(names.map((n) => [n, lateSize(terms[n])]));
  const result: TermDiagnostics = { constant: [], zero: [], dominating: [], tiny: [] };
  for (const name of names) {
    const values = seriesOf(terms[name].early, terms[name].late, terms[name].series);
    const sizes = terms[name].abs ? seriesOf(terms[name].abs.early, terms[name].abs.late, terms[name].abs.series) : values.map(Math.abs);
    const magnitude = Math.max(0, ...values.map(Math.abs));
    const spread = values.length > 0 ? Math.max(...values) - Math.min(...values) : 0;
    const zero = Math.max(0, ...sizes) < t.zero;
    if (zero) result.zero.push(name);
    if (zero || spread <= t.constantSpread * magnitude) result.constant.push(name);
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

function seriesOf(early: number, late: number, series: number[]): number[] {
  return (series.length > 0 ? series : [early, late]).filter(Number.isFinite);
}

/** The flags in words, one line per flagged term. */
export function diagnosticsLines(d: TermDiagnostics): string[] {
  const lines: string[] = [];
  for (const n of d.zero) lines.push(`- ${n} is zero throughout training: it never fires.`);
  for (const n of d.constant.filter((x) => !d.zero.includes(x))) {
    lines.push(`- ${n} is constant: a steady cost, or a term RL cannot change; check which before dropping it.`);
  }
  for (const n of d.dominating) lines.push(`- ${n} dominates: its late mean |value| per step is over ${DIAGNOSTIC_THRESHOLDS.dominanceRatio}x every other term's.`);
  for (const n of d.tiny) lines.push(`- ${n} is tiny: its late mean |value| per step is under ${DIAGNOSTIC_THRESHOLDS.tinyRatio * 100}% of the largest term's, so it has almost no influence.`);
  return lines;
}
