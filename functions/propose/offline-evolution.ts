/**
 * The offline proposer's evolution strategy over any reward's own code (derived-reward.ts): each
 * scalable constant is multiplied by a log-normal factor with its own step size, and the step sizes
 * adapt themselves (Schwefel's self-adaptation: sigma' = sigma * exp(tau0 * N + tau * N_i), then
 * x' = x * exp(sigma' * N_i')), so a constant whose changes paid off keeps moving and one that is
 * right settles. Structural changes: a term of the parent's record dropped, a grammar term added.
 * Two rewards of the same shape recombine constant by constant (each from one parent, with its step
 * size). Works on a person's, a baseline's or a model's reward alike.
 */
import type { Random } from '../../core/random.ts';
import {
  canWrap, constantsOf, describeChanges, parentTerms, readDerived, renderDerived, sameShape, withValues, type DerivedReward,
} from './derived-reward.ts';
import { normalize, sampleCoef, type Grammar } from './offline-grammar.ts';
import { REWARD_RULES } from './prompt.ts';

export const EVOLUTION_SETTINGS = {
  /** Step sizes stay within these bounds. */
  sigmaBounds: [0.02, 1] as const,
  /** One step scales a constant by at most this factor either way. */
  maxFactor: 3,
  /** Chance that a child of later generations also drops or adds a term. */
  structuralChance: 0.25,
} as const;

/** A reward to derive from: its name, code and score. */
export interface CodeParent {
  name: string;
  code: string;
  success: number;
}

export interface CodeChild {
  code: string;
  /** What was done, in words, for the idea line. */
  notes: string[];
}

const clamp = (x: number, low: number, high: number): number => Math.min(Math.max(x, low), high);

/** One self-adaptive step over every constant. */
function esStep(values: number[], sigmas: number[], rng: Random): { values: number[]; sigmas: number[] } {
  const n = Math.max(1, values.length);
  const tau0 = 1 / Math.sqrt(2 * n);
  const tau = 1 / Math.sqrt(2 * Math.sqrt(n));
  const common = rng.normal();
  const [low, high] = EVOLUTION_SETTINGS.sigmaBounds;
  const f = EVOLUTION_SETTINGS.maxFactor;
  // Three significant digits: the header stays readable, and reads back as written.
  const nextSigmas = sigmas.map((s) => Number(clamp(s * Math.exp(tau0 * common + tau * rng.normal()), low, high).toPrecision(3)));
  const nextValues = values.map((x, i) => x * clamp(Math.exp(nextSigmas[i] * rng.normal()), 1 / f, f));
  return { values: nextValues, sigmas: nextSigmas };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)];
};

/** Drops one of the parent's terms (never the last) or adds a grammar term it lacks. */
function structural(g: Grammar, d: DerivedReward, rng: Random, preferDrop: boolean): DerivedReward | null {
  if (!canWrap(d)) return null;
  const left = parentTerms(d).filter((t) => !d.spec.drop.includes(t));
  const added = new Set(d.spec.add.terms.map((t) => t.family));
  const addable = [...g.signal, ...(g.reward === undefined ? [] : [g.reward])].filter((f) => !added.has(f));
  const canDrop = left.length >= 2;
  if ((preferDrop && canDrop) || addable.length === 0) {
    if (!canDrop) return null;
    return { ...d, spec: { ...d.spec, drop: [...d.spec.drop, left[rng.int(left.length)]].sort() } };
  }
  const family = addable[rng.int(addable.length)];
  const baseSigmas = d.spec.sigmas.slice(0, d.spec.sigmas.length - d.spec.add.terms.length);
  const sigmaOf = new Map(d.spec.add.terms.map((t, k) => [t.family, d.spec.sigmas[baseSigmas.length + k]]));
  sigmaOf.set(family, baseSigmas.length > 0 ? median(baseSigmas) : 0.2);
  const add = normalize(g, { terms: [...d.spec.add.terms, { family, coef: sampleCoef(g, family, rng) }] });
  return { ...d, spec: { ...d.spec, add, sigmas: [...baseSigmas, ...add.terms.map((t) => sigmaOf.get(t.family) ?? 0.2)] } };
}

/**
 * A child of one parent: every constant stepped; a structural change when `structure` says so
 * ('force': always, 'maybe': with EVOLUTION_SETTINGS.structuralChance, 'none': never).
 */
export function mutateCode(g: Grammar, parent: CodeParent, rng: Random, structure: 'none' | 'maybe' | 'force', preferDrop = false): CodeChild {
  let d = readDerived(g, parent.name, parent.code);
  const notes: string[] = [];
  const change = structure === 'force' || (structure === 'maybe' && rng.next() < EVOLUTION_SETTINGS.structuralChance);
  const changed = change ? structural(g, d, rng, preferDrop) : null;
  if (changed !== null) {
    const dropped = changed.spec.drop.filter((t) => !d.spec.drop.includes(t));
    const added = changed.spec.add.terms.filter((t) => !d.spec.add.terms.some((u) => u.family === t.family));
    notes.push(...dropped.map((t) => `dropped ${t}`), ...added.map((t) => `added ${g.specs[t.family].term}`));
    d = changed;
  }
  return finish(g, d, esStep(constantsOf(d), d.spec.sigmas, rng), notes);
}

/** A child of two parents of the same shape (null when their shapes differ): each constant from one of them, then a step. */
export function recombineCode(g: Grammar, a: CodeParent, b: CodeParent, rng: Random): CodeChild | null {
  const da = readDerived(g, a.name, a.code);
  const db = readDerived(g, b.name, b.code);
  if (!sameShape(da, db)) return null;
  const va = constantsOf(da);
  const vb = constantsOf(db);
  const pick = va.map(() => rng.next() < 0.5);
  const values = va.map((x, i) => (pick[i] ? vb[i] : x));
  const sigmas = da.spec.sigmas.map((s, i) => (pick[i] ? db.spec.sigmas[i] : s));
  const notes = [`recombined with ${b.name} (${pick.filter(Boolean).length} of ${pick.length} constants from it)`];
  return finish(g, da, esStep(values, sigmas, rng), notes);
}

function finish(g: Grammar, d: DerivedReward, step: { values: number[]; sigmas: number[] }, notes: string[]): CodeChild {
  const child = withValues(g, d, step.values, step.sigmas);
  const sigmaText = step.sigmas.length === 0 ? 'no constants to scale' : `constants rescaled log-normally, median step size ${median(step.sigmas).toPrecision(2)}`;
  // The changes its line made before this step, when there were any besides this step's.
  const inAll = describeChanges(g, child.spec);
  const earlier = inAll !== 'constants only' && inAll !== notes.join('; ') && notes.every((n) => !n.startsWith('recombined')) ? [`in all: ${inAll}`] : [];
  const all = [sigmaText, ...notes, ...earlier];
  return { code: renderDerived(g, child, ''), notes: all };
}

/** The code with its idea line filled in, or null when it would be over the size limit. */
export function withIdea(code: string, idea: string): string | null {
  const out = code.replace(/^\/\/ idea: .*$/m, () => `// idea: ${idea.replace(/\s+/g, ' ')}`);
  return Buffer.byteLength(out, 'utf8') <= REWARD_RULES.maxCodeBytes ? out : null;
}
