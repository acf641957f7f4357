/**
 * The offline proposer's mutations of a grammar program (offline-grammar.ts): the changes the
 * reflection's term diagnostics call for (drop a constant term, rescale a dominating one, scale up a
 * tiny one, add a goal bonus when success is low), coefficient jitter and structural changes on top,
 * and the crossover of two programs.
 */
import type { Random } from '../../core/random.ts';
import { defaultCoef, familyOfTerm, normalize, roundCoef, sampleCoef, type Family, type Grammar, type Program } from './offline-grammar.ts';
import { termDiagnostics, type ReflectionBest } from '../shared/words/reflection.ts';
import type { Candidate } from '../shared/search/types.ts';

/** What the offline proposer needs of a parent (the best so far, or another of the best): a ReflectionBest fits. */
export interface OfflineBest {
  candidate: Candidate & { program?: unknown };
  success: ReflectionBest['success'];
  terms: ReflectionBest['terms'];
}

export const OFFLINE_SETTINGS = {
  /** Best success below this counts as near zero: half the generation is rewritten from scratch. */
  rewriteBelow: 0.05,
  /** Best success below this adds a goal bonus (and a shaping term) when missing. */
  lowSuccess: 0.5,
  /** A dominating term is scaled to about this many times the next largest term... */
  dominantTarget: 3,
  /** ...by a factor within these bounds. */
  dominantFactor: [0.1, 0.5] as const,
  /** A tiny term is scaled up to about this share of the largest term... */
  tinyTarget: 0.1,
  /** ...by a factor within these bounds. */
  tinyFactor: [2, 10] as const,
  /** Log-normal jitter of coefficients in the random children, clamped so guidance keeps its sign. */
  perturbSigma: 0.3,
  perturbFactor: [0.6, 1.6] as const,
  /** Chance that a random child also adds, drops or swaps a term. */
  structuralChance: 0.5,
} as const;

const clamp = (x: number, [low, high]: readonly [number, number]): number => Math.min(Math.max(x, low), high);

/** A mutation's result: the program and what changed, in words for the idea line. */
export interface Mutation {
  program: Program;
  notes: string[];
  /** Families the guidance removed (random operators must not bring them back). */
  banned: Set<Family>;
  /** Families the guidance added or rescaled: random operators may swap a shaping one, never drop it. */
  kept: Set<Family>;
}

/** The changes the diagnostics call for, applied to the parent; no randomness. */
export function guidedMutation(g: Grammar, parent: Program, best: OfflineBest): Mutation {
  const s = OFFLINE_SETTINGS;
  const diag = termDiagnostics(best.terms);
  const coefs = new Map(parent.terms.map((t) => [t.family, t.coef]));
  const notes: string[] = [];
  const banned = new Set<Family>();
  const kept = new Set<Family>();
  const late = (name: string): number => Math.abs(best.terms[name]?.late ?? 0);
  const names = Object.keys(best.terms);
  const largestOther = (name: string): number =>
    Math.max(0, ...names.filter((n) => n !== name && !diag.zero.includes(n)).map(late));
  for (const name of diag.constant) {
    const f = familyOfTerm(g, name);
    // A step cost or alive bonus is constant by design; a goal bonus is zero until the goal is reached.
    if (f === undefined || !coefs.has(f) || g.specs[f].kind === 'constant' || g.specs[f].kind === 'sparse') continue;
    coefs.delete(f);
    banned.add(f);
    notes.push(`dropped ${name} (${diag.zero.includes(name) ? 'zero' : 'nearly constant'} throughout training)`);
  }
  for (const name of diag.dominating) {
    const f = familyOfTerm(g, name);
    if (f === undefined || !coefs.has(f)) continue;
    const factor = clamp((s.dominantTarget * largestOther(name)) / late(name), s.dominantFactor);
    coefs.set(f, (coefs.get(f) ?? 0) * factor);
    kept.add(f);
    notes.push(`scaled ${name} by ${factor.toPrecision(2)} (it dominated the total)`);
  }
  const largest = Math.max(0, ...names.map(late));
  for (const name of diag.tiny) {
    const f = familyOfTerm(g, name);
    if (f === undefined || !coefs.has(f)) continue;
    const factor = clamp((s.tinyTarget * largest) / late(name), s.tinyFactor);
    coefs.set(f, (coefs.get(f) ?? 0) * factor);
    kept.add(f);
    notes.push(`scaled ${name} by ${factor.toPrecision(2)} (it was tiny)`);
  }
  const add = (f: Family, why: string): void => {
    coefs.set(f, defaultCoef(g, f));
    kept.add(f);
    notes.push(`added ${g.specs[f].term} (${why})`);
  };
  if (best.success < s.lowSuccess && g.reward !== undefined && !coefs.has(g.reward)) add(g.reward, 'success is low');
  // The shaping family to add when one is missing: the task's first feature first, never one just dropped.
  const shaping = g.shaping.find((f) => !banned.has(f)) ?? g.signal.find((f) => !banned.has(f)) ?? g.signal[0];
  if (best.success < s.lowSuccess && !g.shaping.some((f) => coefs.has(f))) {
    add(shaping, 'success is low and no term shapes the progress');
  } else if (!g.signal.some((f) => coefs.has(f))) add(shaping, 'no dense learning signal was left');
  const program = normalize(g, { terms: [...coefs].map(([family, coef]) => ({ family, coef })) });
  return { program, notes, banned, kept };
}

/** Coefficient jitter and, sometimes, one structural change, on top of the guided mutation. */
export function randomMutation(g: Grammar, guided: Mutation, rng: Random): Mutation {
  const s = OFFLINE_SETTINGS;
  const coefs = new Map(guided.program.terms.map((t) => [t.family, t.coef]));
  const notes = [...guided.notes];
  for (const [f, coef] of coefs) coefs.set(f, coef * clamp(Math.exp(s.perturbSigma * rng.normal()), s.perturbFactor));
  notes.push('perturbed the coefficients');
  if (rng.next() < s.structuralChance) {
    const present = [...coefs.keys()];
    const addable = g.families.filter((f) => !coefs.has(f) && !guided.banned.has(f));
    const signals = present.filter((f) => g.signal.includes(f));
    const droppable = present.filter((f) => !guided.kept.has(f) && !(signals.length === 1 && signals[0] === f));
    const shaping = present.filter((f) => g.shaping.includes(f));
    const swapTo = g.shaping.filter((f) => !coefs.has(f) && !guided.banned.has(f));
    const op = rng.int(3);
    if (op === 0 && addable.length > 0) {
      const f = addable[rng.int(addable.length)];
      coefs.set(f, sampleCoef(g, f, rng));
      notes.push(`added ${g.specs[f].term}`);
    } else if (op === 1 && droppable.length > 0) {
      const f = droppable[rng.int(droppable.length)];
      coefs.delete(f);
      notes.push(`dropped ${g.specs[f].term}`);
    } else if (shaping.length > 0 && swapTo.length > 0) {
      const from = shaping[rng.int(shaping.length)];
      const to = swapTo[rng.int(swapTo.length)];
      coefs.delete(from);
      coefs.set(to, sampleCoef(g, to, rng));
      notes.push(`swapped ${g.specs[from].term} for ${g.specs[to].term}`);
    }
  }
  const program = normalize(g, { terms: [...coefs].map(([family, coef]) => ({ family, coef: roundCoef(g, family, coef) })) });
  return { ...guided, program, notes };
}

/** Two programs crossed: each family of either parent, a shared one with one parent's coefficient; at least one dense term. */
export function crossover(g: Grammar, a: Program, b: Program, rng: Random): Mutation {
  const coefOf = (p: Program, f: Family) => p.terms.find((t) => t.family === f)?.coef;
  const terms = g.families.flatMap((family) => {
    const [ca, cb] = [coefOf(a, family), coefOf(b, family)];
    if (ca !== undefined && cb !== undefined) return [{ family, coef: rng.next() < 0.5 ? ca : cb }];
    const coef = ca ?? cb;
    return coef !== undefined && rng.next() < 0.5 ? [{ family, coef }] : [];
  });
  if (!terms.some((t) => g.signal.includes(t.family))) {
    const lead = [...a.terms, ...b.terms].find((t) => g.signal.includes(t.family));
    if (lead !== undefined) terms.push(lead);
  }
  return { program: normalize(g, { terms }), notes: [], banned: new Set(), kept: new Set() };
}
