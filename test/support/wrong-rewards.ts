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

/**
 * The tasks whose bank holds no success yet, and why: the screen can then judge only a reward's
 * terms and scale ('no-successes' warns), never its ranking. Ant-v5: the trained policies that walk
 * its 25 m do so in 1 or 2 greedy episodes of 20 (docs/mujoco.md), too rare for `eureka bank`'s few
 * tries, and the open-loop gait we wrote does so only by paying more in torque than it gains, so
 * Gymnasium's own reward would rank standing still above it: a success that teaches the screen the
 * wrong thing.
 */
export const NO_SUCCESSES_YET: ReadonlyMap<string, string> = new Map([
  ['Ant-v5', 'its trained policies walk 25 m too rarely to fill a bank'],
]);

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
