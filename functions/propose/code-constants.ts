/**
 * The numeric constants of a reward's own code, read from its tokens (js-tokens.ts): the numbers an
 * evolution strategy may scale without changing what the code means. A number is left alone where
 * scaling it would change the code's form rather than a weight: an index (`s[2]`), an equality
 * test (`action === 2`), an exponent (`x ** 2`, `Math.pow(x, 2)`), an integer bound (`i < 4`), a
 * `for` header, bitwise or modulo arithmetic, a `case`, the trainer's discount (`GAMMA = 0.99`,
 * which potential-based shaping must keep), anything inside a call that is undefined for part of
 * its domain (`Math.sqrt`, `Math.log`, `Math.acos`...), and 0.
 */
import { tokenize, type Token } from './js-tokens.ts';

export interface ConstantSite {
  /** Where the literal is in the source, and its text. */
  start: number;
  text: string;
  /** Its value (positive: a sign is an operator, not part of the literal). */
  value: number;
}

const EQUALITY = new Set(['===', '!==', '==', '!=']);
const RELATIONAL = new Set(['<', '>', '<=', '>=']);
const BITWISE = new Set(['%', '<<', '>>', '>>>', '&', '|', '^', '~', '**', '%=', '<<=', '>>=', '>>>=', '&=', '|=', '^=', '**=']);
/** Calls undefined on part of their domain: a scaled constant inside could make them NaN. */
const PARTIAL_CALLS = new Set(['sqrt', 'log', 'log2', 'log10', 'log1p', 'acos', 'asin', 'acosh', 'atanh', 'pow']);
/** Calls whose arguments are counts, positions or exponents. */
const INTEGER_CALLS = new Set(['toFixed', 'toPrecision', 'toString', 'slice', 'substring', 'substr', 'charAt', 'charCodeAt', 'at', 'repeat',
  'fill', 'Array', 'padStart', 'padEnd', 'splice', 'Float64Array', 'Float32Array', 'Int32Array', 'from', 'of']);
const DISCOUNT = /gamma|discount/i;

interface Opener {
  text: string;
  /** The identifier before a `(` (the callee, or `for`), or undefined. */
  callee?: string;
  /** A `[` after a value: a member access, whose contents are an index. */
  member: boolean;
}

/** The significant tokens (no spaces, no comments). */
export function significant(code: string): Token[] {
  return tokenize(code).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
}

/** The constants an evolution strategy may scale, in source order. */
export function constantSites(code: string): ConstantSite[] {
  const tokens = significant(code);
  const stack: Opener[] = [];
  const sites: ConstantSite[] = [];
  tokens.forEach((t, i) => {
    const prev = tokens[i - 1];
    if (t.text === '(' || t.text === '[' || t.text === '{') {
      const member = t.text === '[' && prev !== undefined && (prev.kind === 'identifier' || prev.text === ')' || prev.text === ']');
      stack.push({ text: t.text, callee: t.text === '(' && prev?.kind === 'identifier' ? prev.text : undefined, member });
    } else if (t.text === ')' || t.text === ']' || t.text === '}') {
      stack.pop();
    } else if (t.kind === 'number') {
      const value = numberValue(t.text);
      if (value !== null && scalable(tokens, i, value, stack)) sites.push({ start: t.start, text: t.text, value });
    }
  });
  return sites;
}

/** A decimal literal's value; null for hex, octal, binary and BigInt literals. */
function numberValue(text: string): number | null {
  if (/^0[xXoObB]/.test(text) || text.endsWith('n')) return null;
  const value = Number(text.replace(/_/g, ''));
  return Number.isFinite(value) ? value : null;
}

function scalable(tokens: Token[], i: number, value: number, stack: Opener[]): boolean {
  if (value === 0) return false;
  const prev = tokens[i - 1]?.text ?? '';
  const next = tokens[i + 1]?.text ?? '';
  if (EQUALITY.has(prev) || EQUALITY.has(next) || BITWISE.has(prev) || BITWISE.has(next) || prev === 'case') return false;
  if (Number.isInteger(value) && (RELATIONAL.has(prev) || RELATIONAL.has(next))) return false;
  if (prev === '=' && DISCOUNT.test(tokens[i - 2]?.text ?? '')) return false;
  if (stack.some((o) => o.member || o.callee === 'for' || (o.callee !== undefined && PARTIAL_CALLS.has(o.callee)))) return false;
  const top = stack.at(-1);
  return !(top?.callee !== undefined && INTEGER_CALLS.has(top.callee));
}

/** The code with each site's literal replaced by the matching value (sites as constantSites found them). */
export function withConstants(code: string, sites: ConstantSite[], values: number[]): string {
  let out = '';
  let at = 0;
  sites.forEach((site, k) => {
    out += code.slice(at, site.start) + literal(values[k]);
    at = site.start + site.text.length;
  });
  return out + code.slice(at);
}

/** A positive number as a JavaScript literal of four significant digits. */
export function literal(value: number): string {
  return String(Number(Math.abs(value).toPrecision(4)));
}

/** The code's shape without its scalable constants: two codes with one skeleton differ only in those. */
export function skeleton(code: string): string {
  const starts = new Set(constantSites(code).map((s) => s.start));
  return significant(code).map((t) => (starts.has(t.start) ? '#' : t.text)).join(' ');
}

/** Every identifier token `from` renamed `to` (strings, comments and property names after `.` untouched). */
export function renameIdentifier(code: string, from: string, to: string): string {
  const tokens = tokenize(code);
  let lastSignificant = '';
  return tokens.map((t) => {
    const renamed = t.kind === 'identifier' && t.text === from && lastSignificant !== '.' && lastSignificant !== '?.' ? to : t.text;
    if (t.kind !== 'space' && t.kind !== 'comment') lastSignificant = t.text;
    return renamed;
  }).join('');
}

/** The term names a reward returns: the keys of `return [total, {a, b: ...}]` and `return {reward, terms: {...}}`. */
export function returnedTermNames(code: string): string[] {
  const tokens = significant(code);
  const names = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.text !== 'return') return;
    const open = tokens[i + 1]?.text === '[' ? topLevelAfter(tokens, i + 1, ',') : tokens[i + 1]?.text === '{' ? keyValue(tokens, i + 1, 'terms') : -1;
    if (open >= 0 && tokens[open]?.text === '{') for (const key of objectKeys(tokens, open)) names.add(key);
  });
  return [...names];
}

/** The index after the first `sep` at depth 1 of the bracket opened at `open`, or -1. */
function topLevelAfter(tokens: Token[], open: number, sep: string): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const text = tokens[i].text;
    if (text === '(' || text === '[' || text === '{') depth++;
    else if (text === ')' || text === ']' || text === '}') { if (--depth === 0) return -1; }
    else if (depth === 1 && text === sep) return i + 1;
  }
  return -1;
}

/** The index of the value of `key` in the object literal opened at `open`, or -1. */
function keyValue(tokens: Token[], open: number, key: string): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const text = tokens[i].text;
    if (text === '(' || text === '[' || text === '{') depth++;
    else if (text === ')' || text === ']' || text === '}') { if (--depth === 0) return -1; }
    else if (depth === 1 && tokens[i].kind === 'identifier' && text === key && tokens[i + 1]?.text === ':') return i + 2;
  }
  return -1;
}

/** The keys of the object literal opened at `open`: `name: value`, `'name': value` and shorthand `name`. */
function objectKeys(tokens: Token[], open: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = true;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
    else if (t.text === ')' || t.text === ']' || t.text === '}') { if (--depth === 0) break; }
    if (depth !== 1 || i === open) continue;
    if (t.text === ',') { expectKey = true; continue; }
    if (!expectKey) continue;
    expectKey = false;
    const after = tokens[i + 1]?.text;
    if (t.kind === 'identifier' && (after === ':' || after === ',' || after === '}')) keys.push(t.text);
    else if (t.kind === 'string' && after === ':') keys.push(t.text.slice(1, -1));
  }
  return keys;
}
