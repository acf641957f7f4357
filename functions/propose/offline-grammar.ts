/**
 * The offline proposer's grammar of reward terms (DESIGN §6), built from a task's named features:
 * for each feature a potential-based shaping term and a direct bonus, plus the terms the task's
 * ending calls for (a goal bonus and a step cost where ending is success, an alive bonus and a
 * fall penalty where it is failure) and an action cost. A program is a list of terms, at most one
 * per family, each with a positive coefficient. It renders to readable JavaScript whose header
 * carries the program as JSON, so a mutation can recover it from the stored code alone.
 */
import { ppoConfigFor } from '../../core/ppo-config.ts';
import type { Random } from '../../core/random.ts';
import type { Feature, Task } from '../../tasks/contract.ts';

/** A family's id: "shape:<feature>", "bonus:<feature>", or one of the generic terms. */
export type Family = string;

export interface ProgramTerm {
  family: Family;
  /** Positive; costs are subtracted by the rendered code. */
  coef: number;
}

export interface Program {
  terms: ProgramTerm[];
}

export interface FamilySpec {
  /** The term's name in the returned record. */
  term: string;
  /** The named constant holding the coefficient. */
  constant: string;
  /** Used in candidate names, e.g. g2-energy-shaping-3. */
  slug: string;
  /** Log-uniform sampling range of the coefficient. */
  range: readonly [number, number];
  /** The term's value in JavaScript. */
  expression: string;
  describe: (coef: number) => string;
  /** Dense (gives a learning signal on every step), potential-based shaping, or neither. */
  kind: 'shaping' | 'bonus' | 'sparse' | 'constant' | 'cost';
}

/** A task's grammar: its families in order, and each family's spec. */
export interface Grammar {
  /** Its `ppo` gives the discount the shaping terms use. */
  task: Pick<Task, 'id' | 'features' | 'termination' | 'action' | 'ppo'>;
  families: readonly Family[];
  specs: Readonly<Record<Family, FamilySpec>>;
  /** Dense families: every sampled program has at least one. */
  signal: readonly Family[];
  shaping: readonly Family[];
  /** The family a low success calls for: the goal bonus (ending is success) or the alive bonus. */
  reward?: Family;
}

const upper = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const kebab = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** A feature that reads the task's recorded state (`r[...]`) as well as the observation (`s`). */
export const readsRecorded = (f: Feature): boolean => /\br\[/.test(f.expression);

function featureFamilies(f: Feature): Array<[Family, FamilySpec]> {
  const [before, after] = readsRecorded(f) ? ['obs, state', 'nextObs, nextState'] : ['obs', 'nextObs'];
  return [
    [`shape:${f.name}`, {
      term: `${f.name}Shaping`, constant: `${upper(f.name)}_SHAPING_SCALE`, slug: `${kebab(f.name)}-shaping`, range: [10, 300],
      expression: `${upper(f.name)}_SHAPING_SCALE * (GAMMA * ${f.name}(${after}) - ${f.name}(${before}))`,
      describe: (c) => `potential-based shaping on ${f.describe} (x${c})`, kind: 'shaping',
    }],
    [`bonus:${f.name}`, {
      term: `${f.name}Bonus`, constant: `${upper(f.name)}_BONUS`, slug: `${kebab(f.name)}-bonus`, range: [0.1, 3],
      expression: `${upper(f.name)}_BONUS * ${f.name}(${after})`,
      describe: (c) => `a bonus for ${f.describe} (x${c})`, kind: 'bonus',
    }],
  ];
}

function endingFamilies(task: Grammar['task']): Array<[Family, FamilySpec]> {
  const out: Array<[Family, FamilySpec]> = [];
  if (task.termination === 'success') {
    out.push(['goal', { term: 'goal', constant: 'GOAL_BONUS', slug: 'goal', range: [5, 200], expression: 'terminated ? GOAL_BONUS : 0', describe: (c) => `a goal bonus of ${c}`, kind: 'sparse' }]);
    out.push(['step', { term: 'step', constant: 'STEP_COST', slug: 'step-cost', range: [0.1, 1], expression: '-STEP_COST', describe: (c) => `a step cost of ${c}`, kind: 'constant' }]);
  }
  if (task.termination === 'failure') {
    out.push(['alive', { term: 'alive', constant: 'ALIVE_BONUS', slug: 'alive', range: [0.1, 1], expression: 'ALIVE_BONUS', describe: (c) => `an alive bonus of ${c} per step`, kind: 'constant' }]);
    out.push(['fall', { term: 'fall', constant: 'FALL_PENALTY', slug: 'fall', range: [1, 100], expression: 'terminated ? -FALL_PENALTY : 0', describe: (c) => `a penalty of ${c} when the episode ends early`, kind: 'sparse' }]);
  }
  return out;
}

function actionFamily(task: Grammar['task']): Array<[Family, FamilySpec]> {
  const a = task.action;
  const spec = (expression: string, what: string): Array<[Family, FamilySpec]> => [['action', {
    term: 'actionCost', constant: 'ACTION_COST', slug: 'action-cost', range: [0.01, 0.3], expression,
    describe: (c) => `a cost of ${c} ${what}`, kind: 'cost',
  }]];
  if (a.kind === 'discrete') return a.neutral === undefined ? [] : spec(`action === ${a.neutral} ? 0 : -ACTION_COST`, 'for every action but doing nothing');
  const squares = a.high.map((high, k) => `(action[${k}] / ${Math.max(Math.abs(high), Math.abs(a.low[k]))}) ** 2`).join(' + ');
  return spec(`-ACTION_COST * (${squares}) / ${a.high.length}`, 'per unit of squared action');
}

const cache = new Map<string, Grammar>();

export function grammarFor(task: Grammar['task']): Grammar {
  const known = cache.get(task.id);
  if (known) return known;
  const entries = [...task.features.flatMap(featureFamilies), ...endingFamilies(task), ...actionFamily(task)];
  const specs = Object.fromEntries(entries) as Record<Family, FamilySpec>;
  const families = entries.map(([f]) => f);
  const grammar: Grammar = {
    task,
    families,
    specs,
    signal: families.filter((f) => specs[f].kind === 'shaping' || specs[f].kind === 'bonus'),
    shaping: families.filter((f) => specs[f].kind === 'shaping'),
    reward: task.termination === 'success' ? 'goal' : task.termination === 'failure' ? 'alive' : undefined,
  };
  cache.set(task.id, grammar);
  return grammar;
}

/** Coefficients stay within this factor of their sampling range, whatever mutations do. */
const COEF_SLACK = 10;

/** Three significant digits: readable code, and the header agrees with the constants exactly. */
export function roundCoef(g: Grammar, family: Family, coef: number): number {
  const [low, high] = g.specs[family].range;
  const clamped = Math.min(Math.max(coef, low / COEF_SLACK), high * COEF_SLACK);
  return Number(clamped.toPrecision(3));
}

/** The geometric middle of a family's range: the coefficient a guided mutation adds a term with. */
export function defaultCoef(g: Grammar, family: Family): number {
  const [low, high] = g.specs[family].range;
  return roundCoef(g, family, Math.sqrt(low * high));
}

export function sampleCoef(g: Grammar, family: Family, rng: Random): number {
  const [low, high] = g.specs[family].range;
  return roundCoef(g, family, Math.exp(rng.uniform(Math.log(low), Math.log(high))));
}

/** Terms in the grammar's order, one per family, coefficients rounded. */
export function normalize(g: Grammar, program: Program): Program {
  const byFamily = new Map(program.terms.map((t) => [t.family, t.coef]));
  const terms = g.families.filter((f) => byFamily.has(f)).map((f) => ({ family: f, coef: roundCoef(g, f, byFamily.get(f) ?? 0) }));
  return { terms };
}

export function programKey(g: Grammar, program: Program): string {
  return JSON.stringify(normalize(g, program));
}

/** The family whose term carries the given name in a returned record, if any. */
export function familyOfTerm(g: Grammar, term: string): Family | undefined {
  return g.families.find((f) => g.specs[f].term === term);
}

/** A program with `primary` and a random selection of companions, as generation 1 samples them. */
export function sampleProgram(g: Grammar, primary: Family, rng: Random): Program {
  const terms: ProgramTerm[] = [{ family: primary, coef: sampleCoef(g, primary, rng) }];
  const add = (f: Family | undefined): void => {
    if (f !== undefined && g.specs[f] !== undefined && !terms.some((t) => t.family === f)) terms.push({ family: f, coef: sampleCoef(g, f, rng) });
  };
  if (rng.next() < 0.25) add(g.signal[rng.int(g.signal.length)]);
  // A positive per-step bonus makes ending the episode unattractive unless reaching the goal pays more.
  if (g.reward === 'goal' && (g.specs[primary].kind === 'bonus' || rng.next() < 0.7)) add('goal');
  if (g.reward === 'goal' && rng.next() < 0.5) add('step');
  if (g.reward === 'alive' && rng.next() < 0.7) add('alive');
  if (g.reward === 'alive' && rng.next() < 0.5) add('fall');
  if (rng.next() < 0.2) add('action');
  return normalize(g, { terms });
}

export function describeProgram(g: Grammar, program: Program): string {
  const parts = program.terms.map((t) => g.specs[t.family].describe(t.coef));
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0] ?? 'nothing';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The slug naming a program: its first dense family, else its first term. */
export function programSlug(g: Grammar, program: Program): string {
  const lead = program.terms.find((t) => g.signal.includes(t.family)) ?? program.terms[0];
  return lead === undefined ? 'empty' : g.specs[lead.family].slug;
}

/** Readable JavaScript for a program, with its idea and the program itself in header comments. */
export function renderProgram(g: Grammar, program: Program, idea: string): string {
  const p = normalize(g, program);
  const { lines: body, names } = programLines(g, p);
  const lines = [`// idea: ${idea.replace(/\s+/g, ' ')}`, `// program: ${JSON.stringify(p)}`];
  // The recorded state as two more arguments, where a feature the program uses reads it.
  const state = g.task.features.some((f) => readsRecorded(f) && p.terms.some((t) => t.family === `shape:${f.name}` || t.family === `bonus:${f.name}`));
  lines.push(`function computeReward(obs, action, nextObs, terminated${state ? ', state, nextState' : ''}) {`, ...body);
  lines.push(`  const total = ${names.length > 0 ? names.join(' + ') : '0'};`);
  lines.push(`  return [total, { ${names.join(', ')} }];`, '}', '');
  return lines.join('\n');
}

/**
 * A program's lines inside a function of (obs, action, nextObs, terminated): the discount, the
 * named constants, the features it uses and one const per term; and the terms' names.
 */
export function programLines(g: Grammar, p: Program): { lines: string[]; names: string[] } {
  const used = new Set(p.terms.map((t) => t.family));
  const features = g.task.features.filter((f) => used.has(`shape:${f.name}`) || used.has(`bonus:${f.name}`));
  const lines: string[] = [];
  // F = gamma * phi(s') - phi(s) leaves the optimal policy unchanged only with the discount PPO trains with.
  if (p.terms.some((t) => g.specs[t.family].kind === 'shaping')) lines.push(`  const GAMMA = ${trainerGamma(g)}; // PPO's discount: keeps the shaping potential-based`);
  for (const t of p.terms) lines.push(`  const ${g.specs[t.family].constant} = ${t.coef};`);
  for (const f of features) lines.push(`  // ${f.describe}: about 0 far from the goal, 1 at it`, `  const ${f.name} = (${readsRecorded(f) ? 's, r' : 's'}) => ${f.expression};`);
  for (const t of p.terms) lines.push(`  const ${g.specs[t.family].term} = ${g.specs[t.family].expression};`);
  return { lines, names: p.terms.map((t) => g.specs[t.family].term) };
}

/** The discount the task's PPO trains with (its own setting, or the default). */
export function trainerGamma(g: Grammar): number {
  return ppoConfigFor(g.task, 0, 1).gamma;
}

function isProgramTerm(g: Grammar, x: unknown): x is ProgramTerm {
  if (typeof x !== 'object' || x === null) return false;
  const { family, coef } = x as Record<string, unknown>;
  return typeof family === 'string' && g.families.includes(family) &&
    typeof coef === 'number' && Number.isFinite(coef) && coef > 0;
}

/** A valid program of this grammar from untrusted data, or null. */
export function asProgram(g: Grammar, x: unknown): Program | null {
  if (typeof x !== 'object' || x === null) return null;
  const terms = (x as Record<string, unknown>).terms;
  if (!Array.isArray(terms) || terms.length === 0 || terms.length > g.families.length) return null;
  if (!terms.every((t) => isProgramTerm(g, t))) return null;
  if (new Set(terms.map((t) => t.family)).size !== terms.length) return null;
  return normalize(g, { terms });
}

/** The program in a candidate's `// program:` header, or null when there is none or it is invalid. */
export function parseProgram(g: Grammar, code: string): Program | null {
  const match = /^\/\/ program: (.+)$/m.exec(code);
  if (match === null) return null;
  try {
    return asProgram(g, JSON.parse(match[1]));
  } catch {
    return null;
  }
}
