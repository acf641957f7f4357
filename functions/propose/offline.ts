/**
 * The offline proposer (DESIGN §6): an evolutionary search that starts from what people wrote.
 * Generation 1 samples diverse programs of the reward grammar (offline-grammar.ts, built from the
 * task's named features, so the same search runs on every task) and, beside them, mutates the
 * rewards people wrote: the baselines and any --human-init rewards, their constants rescaled by an
 * evolution strategy (offline-evolution.ts), terms dropped, grammar terms added. Later generations
 * mutate and recombine the best rewards so far (the baselines among them): a grammar program by the
 * reflection's term diagnostics (offline-mutation.ts), any other reward, a model's included, by the
 * evolution strategy over its own code's constants; fresh samples join when the best success is near
 * zero. Seeded and reproducible: the same input gives the same candidates, byte for byte.
 */
import { Random } from '../../core/random.ts';
import {
  asProgram, describeProgram, grammarFor, parseProgram, programSlug, renderProgram, sampleProgram,
  type Family, type Grammar, type Program,
} from './offline-grammar.ts';
import { mutateCode, recombineCode, withIdea, type CodeChild } from './offline-evolution.ts';
import { crossover, guidedMutation, OFFLINE_SETTINGS, randomMutation, type Mutation, type OfflineBest } from './offline-mutation.ts';
import { readDerived } from './derived-reward.ts';
import type { ScoreboardEntry } from '../shared/words/reflection.ts';
import type { Candidate } from '../shared/search/types.ts';

export { OFFLINE_SETTINGS, type OfflineBest } from './offline-mutation.ts';

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
  /** Generation 1: the rewards people wrote (--human-init, the baselines), mutated beside the grammar's samples. */
  people?: Candidate[];
  /** Later generations: the best rewards so far, the baselines among them, with their scores and term statistics. */
  parents?: OfflineBest[];
}

/** How many of the best rewards so far later generations breed from. */
export const PARENTS = 3;

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

/** A candidate being planned: its code (idea line to fill) and idea, and the slug its name takes. */
interface Plan {
  code: string;
  idea: string;
  slug: string;
}

/** The plans so far and the code they hold (without the idea line), so no child repeats a parent or a sibling. */
class Plans {
  readonly list: Plan[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly g: Grammar) {}
  static key(code: string): string {
    return code.replace(/^\/\/ idea: .*$/m, '');
  }
  has(code: string): boolean {
    return this.seen.has(Plans.key(code));
  }
  see(code: string): void {
    this.seen.add(Plans.key(code));
  }
  program(program: Program, idea: string): void {
    const code = renderProgram(this.g, program, idea);
    this.see(code);
    this.list.push({ code, idea, slug: programSlug(this.g, program) });
  }
  code(child: CodeChild, from: string, idea: string): void {
    this.see(child.code);
    this.list.push({ code: child.code, idea, slug: slugOf(from) });
  }
}

const slugOf = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'reward';
const successText = (p: OfflineBest): string => `success ${p.success.toFixed(2)}`;

export function proposeOffline(input: OfflineInput): Candidate[] {
  const { generation, k } = input;
  const g = grammarFor(input.task);
  const rng = new Random(seedFor(input.randomSeed, generation));
  const best = input.best ?? null;
  const plans = new Plans(g);
  let fresh = k;
  if (best !== null && generation > 1) {
    const pool = poolOf(best, input.parents ?? []);
    for (const p of pool) plans.see(p.candidate.code);
    fresh = best.success < OFFLINE_SETTINGS.rewriteBelow ? Math.ceil(k / 2) : 0;
    for (let j = 0; j < k - fresh; j++) breed(g, pool, j, rng, plans);
  }
  const people = best === null ? input.people ?? [] : [];
  const derived = people.length > 0 ? Math.floor(k / 2) : 0;
  sampleFresh(g, fresh - derived, rng, plans, input, best);
  for (let i = 0; i < derived; i++) {
    const source = people[i % people.length];
    const round = Math.floor(i / people.length);
    const parent = { name: source.name, code: source.code, success: 0 };
    let child = mutateCode(g, parent, rng, round === 0 ? 'none' : 'force', round % 2 === 1);
    for (let tries = 0; tries < 20 && plans.has(child.code); tries++) child = mutateCode(g, parent, rng, 'force');
    plans.code(child, readDerived(g, source.name, source.code).spec.from, `Evolved from ${source.name}, written by a person: ${child.notes.join('; ')}.`);
  }
  return plans.list.flatMap((plan, i) => {
    const code = withIdea(plan.code, plan.idea);
    return code === null ? [] : [{ name: `g${generation}-${plan.slug}-${i + 1}`, idea: plan.idea, code }];
  });
}

/** The best so far and the best of the others (the baselines among them), by success, at most PARENTS. */
function poolOf(best: OfflineBest, parents: OfflineBest[]): OfflineBest[] {
  const others = parents.filter((p) => p.candidate.name !== best.candidate.name || p.candidate.code !== best.candidate.code);
  const sorted = [best, ...others].sort((a, b) => b.success - a.success);
  return sorted.slice(0, PARENTS);
}

/**
 * The j-th child of the pool: even slots mutate the first parent (the first of them the guided
 * mutation of a grammar program), odd slots recombine it with another parent, or mutate that one
 * when the two cannot recombine.
 */
function breed(g: Grammar, pool: OfflineBest[], j: number, rng: Random, plans: Plans): void {
  const first = pool[0];
  const other = j % 2 === 1 && pool.length > 1 ? pool[1 + (((j - 1) >> 1) % (pool.length - 1))] : null;
  if (other !== null && recombine(g, first, other, rng, plans)) return;
  mutate(g, other ?? first, j === 0, rng, plans);
}

function mutate(g: Grammar, parent: OfflineBest, guidedFirst: boolean, rng: Random, plans: Plans): void {
  const program = programOf(g, parent.candidate);
  const prefix = `Mutation of ${parent.candidate.name} (${successText(parent)})`;
  if (program !== null) {
    const guided = guidedMutation(g, program, parent);
    let child: Mutation = guidedFirst && guided.notes.length > 0 ? guided : randomMutation(g, guided, rng);
    for (let tries = 0; tries < 20 && plans.has(renderProgram(g, child.program, '')); tries++) child = randomMutation(g, guided, rng);
    plans.program(child.program, `${prefix}: ${child.notes.join('; ')}. ${describeProgram(g, child.program)}.`);
    return;
  }
  const source = { name: parent.candidate.name, code: parent.candidate.code, success: parent.success };
  let child = mutateCode(g, source, rng, 'maybe');
  for (let tries = 0; tries < 20 && plans.has(child.code); tries++) child = mutateCode(g, source, rng, 'maybe');
  plans.code(child, readDerived(g, source.name, source.code).spec.from, `Evolved from ${parent.candidate.name} (${successText(parent)}): ${child.notes.join('; ')}.`);
}

/** A recombination of two grammar programs, or of two rewards of the same shape; false when they are neither. */
function recombine(g: Grammar, a: OfflineBest, b: OfflineBest, rng: Random, plans: Plans): boolean {
  const prefix = `Recombination of ${a.candidate.name} (${successText(a)}) and ${b.candidate.name} (${successText(b)})`;
  const [pa, pb] = [programOf(g, a.candidate), programOf(g, b.candidate)];
  if (pa !== null && pb !== null) {
    let child = randomMutation(g, crossover(g, pa, pb, rng), rng);
    for (let tries = 0; tries < 20 && plans.has(renderProgram(g, child.program, '')); tries++) child = randomMutation(g, crossover(g, pa, pb, rng), rng);
    if (plans.has(renderProgram(g, child.program, ''))) return false;
    plans.program(child.program, `${prefix}: ${child.notes.join('; ')}. ${describeProgram(g, child.program)}.`);
    return true;
  }
  if (pa !== null || pb !== null) return false;
  const [ca, cb] = [a, b].map((p) => ({ name: p.candidate.name, code: p.candidate.code, success: p.success }));
  const child = recombineCode(g, ca, cb, rng);
  if (child === null || plans.has(child.code)) return false;
  plans.code(child, readDerived(g, ca.name, ca.code).spec.from, `${prefix}: ${child.notes.join('; ')}.`);
  return true;
}

/** n fresh samples of the grammar, untried families first. */
function sampleFresh(g: Grammar, n: number, rng: Random, plans: Plans, input: OfflineInput, best: OfflineBest | null): void {
  const rewrite = best !== null && input.generation > 1;
  for (const primary of freshPrimaries(g, Math.max(0, n), rng, triedSlugs(input.scoreboard ?? []))) {
    let program = sampleProgram(g, primary, rng);
    for (let tries = 0; tries < 20 && plans.has(renderProgram(g, program, '')); tries++) program = sampleProgram(g, primary, rng);
    const idea = `${rewrite ? 'Rewrite (the best success is near zero): ' : ''}${describeProgram(g, program)}.`;
    plans.program(program, idea);
  }
}
