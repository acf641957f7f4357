/**
 * The offline proposer's grammar of reward terms (DESIGN §6): a program is a list of terms, at most
 * one per family, each with a positive coefficient. It renders to readable JavaScript whose header
 * carries the program as JSON, so a mutation can recover it from the stored code alone.
 */
import type { Random } from '../shared/random.ts';

export const FAMILIES = ['energy', 'height', 'position', 'velocity', 'progress', 'goal', 'step', 'action'] as const;
export type Family = (typeof FAMILIES)[number];

/** Families that give a dense learning signal; every sampled program has at least one. */
export const SIGNAL_FAMILIES: readonly Family[] = ['energy', 'height', 'position', 'velocity', 'progress'];
export const SHAPING_FAMILIES: readonly Family[] = ['energy', 'height', 'position'];

export interface ProgramTerm {
  family: Family;
  /** Positive; costs are subtracted by the rendered code. */
  coef: number;
}

export interface Program {
  terms: ProgramTerm[];
}

interface FamilySpec {
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
}

export const FAMILY_SPECS: Record<Family, FamilySpec> = {
  energy: {
    term: 'energyShaping', constant: 'ENERGY_SHAPING_SCALE', slug: 'energy-shaping', range: [10, 300],
    expression: 'ENERGY_SHAPING_SCALE * (GAMMA * energy(nextObs) - energy(obs))',
    describe: (c) => `potential-based shaping on mechanical energy (x${c})`,
  },
  height: {
    term: 'heightShaping', constant: 'HEIGHT_SHAPING_SCALE', slug: 'height-shaping', range: [1, 30],
    expression: 'HEIGHT_SHAPING_SCALE * (GAMMA * height(nextObs) - height(obs))',
    describe: (c) => `potential-based shaping on height sin(3p) (x${c})`,
  },
  position: {
    term: 'positionShaping', constant: 'POSITION_SHAPING_SCALE', slug: 'position-shaping', range: [3, 100],
    expression: 'POSITION_SHAPING_SCALE * (GAMMA * nextObs[0] - obs[0])',
    describe: (c) => `potential-based shaping on position (x${c})`,
  },
  velocity: {
    term: 'velocity', constant: 'VELOCITY_SCALE', slug: 'velocity', range: [0.1, 3],
    expression: 'VELOCITY_SCALE * Math.abs(nextObs[1]) / MAX_SPEED',
    describe: (c) => `a speed bonus |v|/0.07 (x${c})`,
  },
  progress: {
    term: 'progress', constant: 'PROGRESS_SCALE', slug: 'progress', range: [0.1, 3],
    expression: 'PROGRESS_SCALE * Math.max(0, nextObs[0] - obs[0]) / MAX_SPEED',
    describe: (c) => `a bonus for rightward progress (x${c})`,
  },
  goal: {
    term: 'goal', constant: 'GOAL_BONUS', slug: 'goal', range: [5, 200],
    expression: 'terminated ? GOAL_BONUS : 0',
    describe: (c) => `a goal bonus of ${c}`,
  },
  step: {
    term: 'step', constant: 'STEP_COST', slug: 'step-cost', range: [0.1, 1],
    expression: '-STEP_COST',
    describe: (c) => `a step cost of ${c}`,
  },
  action: {
    term: 'actionCost', constant: 'ACTION_COST', slug: 'action-cost', range: [0.01, 0.3],
    expression: 'action === 1 ? 0 : -ACTION_COST',
    describe: (c) => `a cost of ${c} for every push`,
  },
};

/** Coefficients stay within this factor of their sampling range, whatever mutations do. */
const COEF_SLACK = 10;

/** Three significant digits: readable code, and the header agrees with the constants exactly. */
export function roundCoef(family: Family, coef: number): number {
  const [low, high] = FAMILY_SPECS[family].range;
  const clamped = Math.min(Math.max(coef, low / COEF_SLACK), high * COEF_SLACK);
  return Number(clamped.toPrecision(3));
}

/** The geometric middle of a family's range: the coefficient a guided mutation adds a term with. */
export function defaultCoef(family: Family): number {
  const [low, high] = FAMILY_SPECS[family].range;
  return roundCoef(family, Math.sqrt(low * high));
}

export function sampleCoef(family: Family, rng: Random): number {
  const [low, high] = FAMILY_SPECS[family].range;
  return roundCoef(family, Math.exp(rng.uniform(Math.log(low), Math.log(high))));
}

/** Terms in the grammar's order, one per family, coefficients rounded. */
export function normalize(program: Program): Program {
  const byFamily = new Map(program.terms.map((t) => [t.family, t.coef]));
  const terms = FAMILIES.filter((f) => byFamily.has(f)).map((f) => ({ family: f, coef: roundCoef(f, byFamily.get(f) ?? 0) }));
  return { terms };
}

export function programKey(program: Program): string {
  return JSON.stringify(normalize(program));
}

/** The family whose term carries the given name in a returned record, if any. */
export function familyOfTerm(term: string): Family | undefined {
  return FAMILIES.find((f) => FAMILY_SPECS[f].term === term);
}

/** A program with `primary` and a random selection of companions, as generation 1 samples them. */
export function sampleProgram(primary: Family, rng: Random): Program {
  const terms: ProgramTerm[] = [{ family: primary, coef: sampleCoef(primary, rng) }];
  const add = (f: Family): void => {
    if (!terms.some((t) => t.family === f)) terms.push({ family: f, coef: sampleCoef(f, rng) });
  };
  if (rng.next() < 0.25) add(SIGNAL_FAMILIES[rng.int(SIGNAL_FAMILIES.length)]);
  // A positive per-step bonus makes ending the episode unattractive unless the flag pays more.
  if (primary === 'velocity' || primary === 'progress' || rng.next() < 0.7) add('goal');
  if (rng.next() < 0.5) add('step');
  if (rng.next() < 0.2) add('action');
  return normalize({ terms });
}

export function describeProgram(program: Program): string {
  const parts = program.terms.map((t) => FAMILY_SPECS[t.family].describe(t.coef));
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0] ?? 'nothing';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The slug naming a program: its first dense family, else its first term. */
export function programSlug(program: Program): string {
  const lead = program.terms.find((t) => SIGNAL_FAMILIES.includes(t.family)) ?? program.terms[0];
  return lead === undefined ? 'empty' : FAMILY_SPECS[lead.family].slug;
}

const POTENTIALS: Partial<Record<Family, string>> = {
  energy: 'const energy = (s) => (0.5 * s[1] * s[1] + (GRAVITY / 3) * Math.sin(3 * s[0])) * ENERGY_SCALE;',
  height: 'const height = (s) => Math.sin(3 * s[0]);',
};

/** Readable JavaScript for a program, with its idea and the program itself in header comments. */
export function renderProgram(program: Program, idea: string): string {
  const p = normalize(program);
  const has = (f: Family): boolean => p.terms.some((t) => t.family === f);
  const lines = [`// idea: ${idea.replace(/\s+/g, ' ')}`, `// program: ${JSON.stringify(p)}`];
  lines.push('function computeReward(obs, action, nextObs, terminated) {');
  if (SHAPING_FAMILIES.some(has)) lines.push('  const GAMMA = 0.99; // PPO\'s discount: keeps the shaping potential-based');
  if (has('energy')) lines.push('  const GRAVITY = 0.0025;', '  const ENERGY_SCALE = 400; // energy in about [-0.33, 1.3]');
  if (has('velocity') || has('progress')) lines.push('  const MAX_SPEED = 0.07;');
  for (const t of p.terms) lines.push(`  const ${FAMILY_SPECS[t.family].constant} = ${t.coef};`);
  for (const f of FAMILIES) if (has(f) && POTENTIALS[f] !== undefined) lines.push(`  ${POTENTIALS[f]}`);
  const names = p.terms.map((t) => FAMILY_SPECS[t.family].term);
  for (const t of p.terms) lines.push(`  const ${FAMILY_SPECS[t.family].term} = ${FAMILY_SPECS[t.family].expression};`);
  lines.push(`  const total = ${names.length > 0 ? names.join(' + ') : '0'};`);
  lines.push(`  return [total, { ${names.join(', ')} }];`, '}', '');
  return lines.join('\n');
}

function isProgramTerm(x: unknown): x is ProgramTerm {
  if (typeof x !== 'object' || x === null) return false;
  const { family, coef } = x as Record<string, unknown>;
  return typeof family === 'string' && (FAMILIES as readonly string[]).includes(family) &&
    typeof coef === 'number' && Number.isFinite(coef) && coef > 0;
}

/** A valid program from untrusted data, or null. */
export function asProgram(x: unknown): Program | null {
  if (typeof x !== 'object' || x === null) return null;
  const terms = (x as Record<string, unknown>).terms;
  if (!Array.isArray(terms) || terms.length === 0 || terms.length > FAMILIES.length) return null;
  if (!terms.every(isProgramTerm)) return null;
  if (new Set(terms.map((t) => t.family)).size !== terms.length) return null;
  return normalize({ terms });
}

/** The program in a candidate's `// program:` header, or null when there is none or it is invalid. */
export function parseProgram(code: string): Program | null {
  const match = /^\/\/ program: (.+)$/m.exec(code);
  if (match === null) return null;
  try {
    return asProgram(JSON.parse(match[1]));
  } catch {
    return null;
  }
}
