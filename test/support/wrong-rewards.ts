/**
 * The deliberately wrong rewards of test/fixtures/wrong-rewards/<task>/ and what the screen must say
 * of each: its "// expect:" line lists finding codes, a code:policy naming the failure it prefers
 * (a kind whose AUC is below 0.5). Read by test/screen.test.ts and bench/screen.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Screen } from '../../functions/shared/search/screen-types.ts';
import { screenFindings } from '../../functions/shared/words/screen-words.ts';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'wrong-rewards');

export interface Expected {
  code: string;
  /** The failure policy it must prefer, where named. */
  policy?: string;
}

export interface WrongReward {
  file: string;
  source: string;
  expect: Expected[];
}

export function wrongRewards(taskId: string): WrongReward[] {
  const dir = join(ROOT, taskId);
  return readdirSync(dir).filter((f) => f.endsWith('.js')).sort().map((f) => {
    const source = readFileSync(join(dir, f), 'utf8');
    const line = /^\/\/ expect:(.*)$/m.exec(source);
    if (!line) throw new Error(`${join(dir, f)} has no "// expect:" line`);
    const expect = line[1].trim().split(/\s+/).map((word) => {
      const [code, policy] = word.split(':');
      return policy === undefined ? { code } : { code, policy };
    });
    return { file: `${taskId}/${f}`, source, expect };
  });
}

/** What of `expect` the screen did not say (empty: all of it). */
export function missing(screen: Screen, expect: Expected[]): string[] {
  const codes = new Set(screenFindings(screen).map((f) => f.code));
  return expect.flatMap((e) => {
    if (!codes.has(e.code as never)) return [`no ${e.code} finding`];
    const kind = e.policy === undefined ? null : screen.kinds.find((k) => k.policy === e.policy);
    if (e.policy !== undefined && !(kind && kind.auc !== null && kind.auc < 0.5)) return [`does not prefer ${e.policy}`];
    return [];
  });
}

/** The codes of the findings that fail a reward. */
export function failing(screen: Screen): string[] {
  return screenFindings(screen).filter((f) => f.severity === 'fails').map((f) => f.code);
}
