/**
 * A reward the offline proposer derived from another reward's code, whoever wrote it (a person, a
 * baseline, a model, or an earlier derivation): the parent's code with its scalable constants
 * (code-constants.ts) set anew, and, when terms were dropped or grammar terms added, a wrapper
 * `computeReward` that calls the parent's (renamed) and changes its total and terms. The header
 * carries what the code alone cannot: where it came from, the step size of each constant (the
 * evolution strategy's own state), the dropped terms and the added program. Nothing here runs the
 * code: it is rewritten token by token and checked in the sandbox like every candidate.
 */
import { constantSites, renameIdentifier, returnedTermNames, significant, skeleton, withConstants } from './code-constants.ts';
import { asProgram, normalize, programLines, type Grammar, type Program } from './offline-grammar.ts';

export interface DerivedSpec {
  /** The name of the reward the line of derivations started from. */
  from: string;
  /** The step size of each scalable constant of the base, in source order, then of each added term. */
  sigmas: number[];
  /** Terms of the parent's record taken out of its total. */
  drop: string[];
  /** Grammar terms added to the total. */
  add: Program;
}

export interface DerivedReward {
  spec: DerivedSpec;
  /** The parent's code without its header lines. */
  base: string;
  /** Its computeReward is already called PARENT_FUNCTION (the code was wrapped before). */
  renamed: boolean;
}

/** A new line of derivations starts with every constant at this step size. */
export const INITIAL_SIGMA = 0.2;
export const PARENT_FUNCTION = 'parentReward';
const HEADER = '// derived: ';
const WRAPPER_MARK = '// ---- derived: the reward above, changed by the offline proposer';

/** Whether the spec changes terms, so the code needs the wrapper. */
export const wrapped = (spec: DerivedSpec): boolean => spec.drop.length > 0 || spec.add.terms.length > 0;

/** A candidate's code as a derivation: its own header if it has a valid one, else a new line from it. */
export function readDerived(g: Grammar, name: string, code: string): DerivedReward {
  const header = code.split('\n').find((l) => l.startsWith(HEADER));
  const mark = code.indexOf(`\n${WRAPPER_MARK}`);
  const spec = header === undefined ? null : parseSpec(g, header.slice(HEADER.length));
  if (spec !== null) {
    const base = stripHeader(mark >= 0 ? code.slice(0, mark + 1) : code);
    const fits = spec.sigmas.length === constantSites(base).length + spec.add.terms.length;
    if (wrapped(spec) === (mark >= 0) && fits) return { spec, base, renamed: mark >= 0 };
  }
  const base = stripHeader(code);
  const sigmas = constantSites(base).map(() => INITIAL_SIGMA);
  return { spec: { from: name, sigmas, drop: [], add: { terms: [] } }, base, renamed: false };
}

function parseSpec(g: Grammar, json: string): DerivedSpec | null {
  try {
    const x = JSON.parse(json) as Partial<DerivedSpec>;
    const add = x.add !== undefined && (x.add as Program).terms?.length === 0 ? { terms: [] } : asProgram(g, x.add);
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
    const positive = (v: unknown): v is number[] => Array.isArray(v) && v.every((s) => typeof s === 'number' && Number.isFinite(s) && s > 0);
    if (typeof x.from !== 'string' || !strings(x.drop) || !positive(x.sigmas) || add === null) return null;
    return { from: x.from, sigmas: x.sigmas, drop: x.drop, add };
  } catch {
    return null;
  }
}

/** The leading comment lines a proposer writes (idea, program, derived), which a derivation writes anew. */
function stripHeader(code: string): string {
  const lines = code.split('\n');
  let i = 0;
  while (i < lines.length && /^\/\/ (idea|program|derived):/.test(lines[i])) i++;
  return lines.slice(i).join('\n');
}

/** The values of the derivation's constants: the base's, then the added terms' coefficients. */
export function constantsOf(d: DerivedReward): number[] {
  return [...constantSites(d.base).map((s) => s.value), ...d.spec.add.terms.map((t) => t.coef)];
}

/** The same derivation with new constant values (and their step sizes). */
export function withValues(g: Grammar, d: DerivedReward, values: number[], sigmas: number[]): DerivedReward {
  const sites = constantSites(d.base);
  const base = withConstants(d.base, sites, values.slice(0, sites.length));
  const terms = d.spec.add.terms.map((t, k) => ({ family: t.family, coef: values[sites.length + k] }));
  return { ...d, base, spec: { ...d.spec, sigmas, add: normalize(g, { terms }) } };
}

/** Two derivations whose constants can be recombined one by one: the same code around them, the same changes. */
export function sameShape(a: DerivedReward, b: DerivedReward): boolean {
  const families = (d: DerivedReward) => d.spec.add.terms.map((t) => t.family).join(',');
  return a.spec.drop.join(',') === b.spec.drop.join(',') && families(a) === families(b) && skeleton(a.base) === skeleton(b.base);
}

/** Terms can change only where the wrapper's name for the parent is free in the parent's code. */
export function canWrap(d: DerivedReward): boolean {
  return d.renamed || !significant(d.base).some((t) => t.kind === 'identifier' && t.text === PARENT_FUNCTION);
}

/** The term names the parent's code returns (what a drop can take out). */
export function parentTerms(d: DerivedReward): string[] {
  return returnedTermNames(d.base);
}

/** The derivation as a candidate's code: the header, the base, and the wrapper when terms changed. */
export function renderDerived(g: Grammar, d: DerivedReward, idea: string): string {
  const header = [`// idea: ${idea.replace(/\s+/g, ' ')}`, `${HEADER}${JSON.stringify(d.spec)}`];
  if (!wrapped(d.spec)) return `${header.join('\n')}\n${d.base.replace(/\s*$/, '\n')}`;
  const base = d.renamed ? d.base : renameIdentifier(d.base, 'computeReward', PARENT_FUNCTION);
  return [...header, base.replace(/\s*$/, ''), wrapper(g, d.spec, parentTerms(d)), ''].join('\n');
}

function wrapper(g: Grammar, spec: DerivedSpec, taken: string[]): string {
  const { lines, names } = programLines(g, spec.add);
  // An added term never overwrites one of the parent's in the record.
  const keys = names.map((n) => (taken.includes(n) ? `${n}Added` : n));
  return [
    `${WRAPPER_MARK}: ${describeChanges(g, spec)} ----`,
    // The recorded state passes through to the parent, which may read it (undefined where the task keeps none).
    'function computeReward(obs, action, nextObs, terminated, state, nextState) {',
    `  const out = ${PARENT_FUNCTION}(obs, action, nextObs, terminated, state, nextState);`,
    '  const parentTotal = Array.isArray(out) ? out[0] : out.reward;',
    '  const parentTerms = (Array.isArray(out) ? out[1] : out.terms) || {};',
    `  const DROPPED = ${JSON.stringify(spec.drop)};`,
    '  let total = parentTotal;',
    '  const terms = {};',
    '  for (const name of Object.keys(parentTerms)) {',
    '    if (DROPPED.includes(name)) total -= parentTerms[name];',
    // Defined, not assigned: a term named __proto__ would set the object's prototype and vanish.
    '    else Object.defineProperty(terms, name, { value: parentTerms[name], enumerable: true, writable: true, configurable: true });',
    '  }',
    ...lines,
    ...names.map((n, k) => `  total += ${n};\n  terms[${JSON.stringify(keys[k])}] = ${n};`),
    '  return [total, terms];',
    '}',
  ].join('\n');
}

/** "dropped sideEngine; added a goal bonus of 12": the changes in words. */
export function describeChanges(g: Grammar, spec: DerivedSpec): string {
  const parts = [
    ...(spec.drop.length > 0 ? [`dropped ${spec.drop.join(', ')}`] : []),
    ...spec.add.terms.map((t) => `added ${g.specs[t.family].describe(t.coef)}`),
  ];
  return parts.length > 0 ? parts.join('; ') : 'constants only';
}
