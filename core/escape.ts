/**
 * Escaping for everything a candidate or a model wrote (names, ideas, code, reasons, term names).
 * HTML: the five significant characters, safe in text and in double-quoted attributes.
 * Markdown: inline text stays text (no HTML, links, emphasis or table breaks); code goes in code
 * spans or fenced blocks whose fence is longer than any backtick run inside.
 */

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' };

export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/** One line: newlines and other control characters become spaces. */
function oneLine(text: string): string {
  return String(text).replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/**
 * Inline Markdown text, safe inside a table cell: one line, and every character that could start
 * HTML, an entity, a link, emphasis, a code span, strikethrough or a cell break is backslash-escaped
 * (CommonMark lets any ASCII punctuation be escaped).
 */
export function mdText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|~&!#]/g, (c) => `\\${c}`);
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of String(text).match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * An inline code span, safe inside a table cell: one line, pipes escaped (GFM unescapes `\|` inside
 * code spans in tables), delimited by more backticks than any run inside.
 */
export function mdCode(text: string): string {
  const body = oneLine(text).replace(/\|/g, '\\|');
  if (body === '') return '';
  const fence = '`'.repeat(longestBacktickRun(body) + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run in the code. */
export function mdFence(code: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(code) + 1));
  const body = String(code).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return `${fence}${language}\n${body}\n${fence}`;
}
