/**
 * The offline proposer (DESIGN §6): an evolutionary search over the reward grammar. Generation 1
 * samples diverse programs; later generations mutate the best so far, guided by the reflection's
 * term diagnostics (drop a constant term, rescale a dominating one, scale up a tiny one, add a goal
 * bonus when success is low), and mix in fresh samples when success is near zero. The terms come
 * from the task's named features (offline-grammar.ts), so the same search runs on every task. Seeded and
 * reproducible: the same input gives the same candidates, byte for byte.
 */
import { Random } from '../../core/random.ts';
import {
  asProgram, defaultCoef, describeProgram, familyOfTerm, grammarFor, normalize, parseProgram, programKey,
  programSlug, renderProgram, roundCoef, sampleCoef, sampleProgram, type Family, type Grammar, type Program,
} from './offline-grammar.ts';
import { termDiagnostics, type Candidate, type ReflectionBest, type ScoreboardEntry } from '../shared/reflection.ts';

/** What the offline proposer needs of the best so far: a ReflectionBest fits. */
export interface OfflineBest {
  candidate: Candidate & { program?: unknown };
  success: ReflectionBest['success'];
  terms: ReflectionBest['terms'];
}

export interface OfflineInput {
  /** The task whose features the grammar is built from. */
  task: Grammar['task'];
  generation: number;
  /** How many candidates to write. */
  k: number;
  /** The search's seed; mixed with the generation. */
  randomSeed: number;
  /** The best reward so far (absent in generation 1). */
  best?: OfflineBest | null;
  /** The last generation's scoreboard: fresh samples try families it has not tried. */
  scoreboard?: ScoreboardEntry[];
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
interface Mutation {
  program: Program;
  notes: string[];
  /** Families the guidance removed (random operators must not bring them back). */
  banned: Set<Family>;
  /** Families the guidance added or rescaled: random operators may swap a shaping one, never drop it. */
  kept: Set<Family>;
}

/** The changes the diagnostics call for, applied to the parent; no randomness. */
function guidedMutation(g: Grammar, parent: Program, best: OfflineBest): Mutation {
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
function randomMutation(g: Grammar, guided: Mutation, rng: Random): Mutation {
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

/** Primary families for n fresh samples: shuffled, untried ones first, then cycling. */
function freshPrimaries(g: Grammar, n: number, rng: Random, tried: Set<string>): Family[] {
  const order = rng.shuffle(g.signal.map((_, i) => i)).map((i) => g.signal[i]);
  const ranked = [...order.filter((f) => !tried.has(g.specs[f].slug)), ...order.filter((f) => tried.has(g.specs[f].slug))];
  return Array.from({ length: n }, (_, i) => ranked[i % ranked.length]);
}

/** The slugs in the last generation's names (g2-energy-shaping-3 -> energy-shaping). */
function triedSlugs(scoreboard: ScoreboardEntry[]): Set<string> {
  const slugs = scoreboard.map((e) => /^g\d+-(.+)-\d+$/.exec(e.name)?.[1]).filter((x): x is string => x !== undefined);
  return new Set(slugs);
}

export function seedFor(randomSeed: number, generation: number): number {
  return ((randomSeed >>> 0) ^ Math.imul(generation, 0x9e3779b1)) >>> 0;
}

/** The parent's program: the stored one if valid, else the one in its code's header. */
export function programOf(g: Grammar, candidate: Candidate & { program?: unknown }): Program | null {
  return asProgram(g, candidate.program) ?? parseProgram(g, candidate.code);
}

export function proposeOffline(input: OfflineInput): Candidate[] {
  const { generation, k } = input;
  const g = grammarFor(input.task);
  const rng = new Random(seedFor(input.randomSeed, generation));
  const best = input.best ?? null;
  const parent = best === null ? null : programOf(g, best.candidate);
  const plans: Array<{ program: Program; idea: string }> = [];
  const seen = new Set<string>(parent === null ? [] : [programKey(g, parent)]);
  const push = (program: Program, idea: string): void => {
    seen.add(programKey(g, program));
    plans.push({ program, idea });
  };
  let fresh = k;
  if (best !== null && parent !== null && generation > 1) {
    fresh = best.success < OFFLINE_SETTINGS.rewriteBelow ? Math.ceil(k / 2) : 0;
    const guided = guidedMutation(g, parent, best);
    const prefix = `Mutation of ${best.candidate.name} (success ${best.success.toFixed(2)})`;
    for (let i = 0; i < k - fresh; i++) {
      let child = i === 0 && guided.notes.length > 0 ? guided : randomMutation(g, guided, rng);
      for (let tries = 0; tries < 20 && seen.has(programKey(g, child.program)); tries++) child = randomMutation(g, guided, rng);
      push(child.program, `${prefix}: ${child.notes.join('; ')}. ${describeProgram(g, child.program)}.`);
    }
  }
  const rewrite = best !== null && generation > 1;
  const primaries = freshPrimaries(g, fresh, rng, triedSlugs(input.scoreboard ?? []));
  for (const primary of primaries) {
    let program = sampleProgram(g, primary, rng);
    for (let tries = 0; tries < 20 && seen.has(programKey(g, program)); tries++) program = sampleProgram(g, primary, rng);
    const why = parent === null ? 'the best so far is not in the grammar' : 'the best success is near zero';
    push(program, `${rewrite ? `Rewrite (${why}): ` : ''}${describeProgram(g, program)}.`);
  }
  return plans.map(({ program, idea }, i) => ({
    name: `g${generation}-${programSlug(g, program)}-${i + 1}`,
    idea,
    code: renderProgram(g, program, idea),
  }));
}
