/**
 * The rewards a bench is given as files: a reward `.js` file, or a proposer's answer (`answer-N.json`,
 * as `--proposer files:DIR` reads it) read through the product's own answer check (checkText), so a
 * bench reads an answer exactly as a search would. A file that cannot be read ends the bench (exit 2).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { checkText } from '../functions/propose/text-proposer.ts';
import { argError } from './args.ts';

export interface FileReward { name: string; idea: string; code: string }

/** The rewards `file` holds; `url` is the bench's import.meta.url, for its error line. */
export function rewardsIn(url: string, file: string): FileReward[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    argError(url, `cannot read ${file}: ${(error as Error).message}`);
  }
  if (!file.endsWith('.json')) return [{ name: basename(file, '.js'), idea: '', code: text }];
  const checked = checkText(text);
  if (!checked.ok) argError(url, `${file} is not an answer: ${checked.problems.join('; ')}`);
  return checked.answer.candidates.map(({ name, idea, code }) => ({ name, idea, code }));
}
