/**
 * A JavaScript tokenizer, just enough for the offline proposer to read a reward's numeric
 * constants without running it (candidate code never runs in Propose): comments, strings,
 * template literals and regular expressions are whole tokens, so a digit inside them, or in an
 * identifier such as `s2` or `log10`, is never taken for a number. It never throws: text it cannot
 * read becomes one-character `other` tokens, and the caller only ever replaces number tokens.
 */

export type TokenKind = 'number' | 'identifier' | 'string' | 'template' | 'regex' | 'comment' | 'space' | 'punct' | 'other';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the token's first character in the source. */
  start: number;
}

/** Longest first, so `>>>=` is one token and `**` is never read as two `*`. */
const PUNCTUATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**', '<<', '>>',
  '{', '}', '(', ')', '[', ']', ';', ',', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '!', '~', '?', ':', '=', '.', '@', '#',
];

const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)n?/;
const IDENTIFIER = /^[\p{ID_Start}$_\\][\p{ID_Continue}$\u200c\u200d\\]*/u;
const SPACE = /^\s+/;
/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let last: Token | undefined;
  let at = 0;
  while (at < source.length) {
    const rest = source.slice(at);
    const token = readToken(source, at, rest, last);
    tokens.push(token);
    if (token.kind !== 'space' && token.kind !== 'comment') last = token;
    at += token.text.length;
  }
  return tokens;
}

function readToken(source: string, at: number, rest: string, last: Token | undefined): Token {
  const make = (kind: TokenKind, length: number): Token => ({ kind, text: source.slice(at, at + Math.max(1, length)), start: at });
  const space = SPACE.exec(rest);
  if (space) return make('space', space[0].length);
  if (rest.startsWith('//')) return make('comment', lineEnd(rest));
  if (rest.startsWith('/*')) return make('comment', rest.includes('*/', 2) ? rest.indexOf('*/', 2) + 2 : rest.length);
  const c = rest[0];
  if (c === '"' || c === '\'') return make('string', quoted(rest, c));
  if (c === '`') return make('template', template(rest));
  if (/[\d.]/.test(c) && (c !== '.' || /^\.\d/.test(rest))) {
    const number = NUMBER.exec(rest);
    if (number) return make('number', number[0].length);
  }
  const identifier = IDENTIFIER.exec(rest);
  if (identifier) return make('identifier', identifier[0].length);
  if (c === '/' && regexAllowed(last)) return make('regex', regex(rest));
  const punct = PUNCTUATORS.find((p) => rest.startsWith(p));
  return punct ? make('punct', punct.length) : make('other', 1);
}

function lineEnd(rest: string): number {
  const end = rest.search(/[\n\r\u2028\u2029]/);
  return end < 0 ? rest.length : end;
}

/** The length of a string literal opened by `quote`, up to its closing quote (or the line's end). */
function quoted(rest: string, quote: string): number {
  for (let i = 1; i < rest.length; i++) {
    if (rest[i] === '\\') i++;
    else if (rest[i] === quote || rest[i] === '\n') return i + 1;
  }
  return rest.length;
}

/** A template literal with its `${...}` parts (braces counted, strings inside them skipped). */
function template(rest: string): number {
  let depth = 0;
  for (let i = 1; i < rest.length; i++) {
    const c = rest[i];
    if (c === '\\') i++;
    else if (depth === 0 && c === '`') return i + 1;
    else if (depth === 0 && c === '$' && rest[i + 1] === '{') { depth = 1; i++; }
    else if (depth > 0 && c === '{') depth++;
    else if (depth > 0 && c === '}') depth--;
    else if (depth > 0 && (c === '"' || c === '\'' || c === '`')) i += (c === '`' ? template(rest.slice(i)) : quoted(rest.slice(i), c)) - 1;
  }
  return rest.length;
}

/** A regular expression literal: to its closing `/` outside a class, then its flags. */
function regex(rest: string): number {
  let inClass = false;
  for (let i = 1; i < rest.length; i++) {
    const c = rest[i];
    if (c === '\\') i++;
    else if (c === '\n') return i;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i + 1 + (/^[a-z]*/.exec(rest.slice(i + 1))?.[0].length ?? 0);
  }
  return rest.length;
}

/** A `/` after a value divides; anywhere else it opens a regular expression. */
function regexAllowed(last: Token | undefined): boolean {
  if (last === undefined) return true;
  if (last.kind === 'number' || last.kind === 'string' || last.kind === 'template' || last.kind === 'regex') return false;
  if (last.kind === 'identifier') return BEFORE_REGEX.has(last.text);
  return !(last.text === ')' || last.text === ']' || last.text === '}' || last.text === '++' || last.text === '--');
}
