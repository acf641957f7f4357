/**
 * `--proposer files:DIR`: a person, or any program, answers in a directory. Each request is
 * written to DIR/request-N.md and the search waits for DIR/answer-N.json, up to the pause's
 * timeout (feedbackTimeoutMinutes) from when the request was written. The same request always
 * gets the same N, so a retried, redriven or resumed search waits for the answer it asked for
 * (and takes one written meanwhile at once). An answer is read once it has stopped changing, so a
 * half-written file is never taken. One Propose invocation waits at most its share of the time
 * (ANSWER_WAIT_SLICE_SECONDS, within its Lambda's timeout); then it fails with AnswerPending and
 * the state machine's Retry invokes it again to go on waiting. Past the deadline an answer that is
 * there but still changing gets CHANGING_ANSWER_SECONDS more, in the invocation that saw it, and
 * then fails for good: otherwise a file rewritten in a loop would hold the search to its end.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ANSWER_WAIT_SLICE_SECONDS } from '../../infra/config.ts';
import { AnswerPending, ProposerError } from './proposer.ts';
import type { TextAnswerer, TextRequest } from './text-proposer.ts';

export interface FilesOptions {
  /** How long after a request is written its answer may come (the search's feedbackTimeoutMinutes). */
  timeoutMinutes: number;
  /** The most one invocation waits. @default ANSWER_WAIT_SLICE_SECONDS */
  sliceSeconds?: number;
  /** How often the directory is looked at. @default 1000 */
  pollMs?: number;
  /** Past the deadline, how long an answer that is there may go on changing. @default CHANGING_ANSWER_SECONDS */
  changingSeconds?: number;
  /** Waits between two looks (tests pass a gate they open). @default a timer of `ms` */
  pause?: (ms: number) => Promise<void>;
}

/**
 * Past the deadline, the seconds an answer that is there may go on changing, counted from the first
 * look past it in one invocation: a writer that finishes needs milliseconds, and half a minute
 * more than the slice still ends before the Lambda's timeout (the slice leaves it a minute).
 */
export const CHANGING_ANSWER_SECONDS = 30;

const REQUEST = /^request-(\d+)\.md$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function filesAnswerer(dir: string, options: FilesOptions): TextAnswerer {
  return { kind: 'files', label: dir, ask: (request) => answerIn(dir, request, options) };
}

/** The N of this request: the one already written with the same text, else the next free one (written now). */
export async function requestNumber(dir: string, text: string): Promise<{ n: number; writtenAt: number }> {
  await mkdir(dir, { recursive: true });
  const numbers = (await readdir(dir)).flatMap((f) => { const m = REQUEST.exec(f); return m === null ? [] : [Number(m[1])]; });
  for (const n of numbers.sort((a, b) => a - b)) {
    const path = join(dir, `request-${n}.md`);
    if ((await readFile(path, 'utf8')) === text) return { n, writtenAt: (await stat(path)).mtimeMs };
  }
  const n = Math.max(0, ...numbers) + 1;
  // Whole or not at all: a reader never sees half a request.
  const path = join(dir, `request-${n}.md`);
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
  return { n, writtenAt: (await stat(path)).mtimeMs };
}

async function answerIn(dir: string, request: TextRequest, options: FilesOptions): Promise<string> {
  const { n, writtenAt } = await requestNumber(dir, request.text);
  const answer = join(dir, `answer-${n}.json`);
  const deadline = writtenAt + options.timeoutMinutes * 60_000;
  const started = Date.now();
  const sliceEnd = started + (options.sliceSeconds ?? ANSWER_WAIT_SLICE_SECONDS) * 1000;
  const changingSeconds = options.changingSeconds ?? CHANGING_ANSWER_SECONDS;
  // Past the deadline (never before it), the slice's end gives way to this.
  const settleBy = Math.max(deadline, started) + changingSeconds * 1000;
  const pollMs = options.pollMs ?? 1000;
  const pause = options.pause ?? sleep;
  process.stderr.write(`eureka: waiting until ${new Date(deadline).toISOString()} for ${answer} (the request is ${join(dir, `request-${n}.md`)})\n`);
  let last: string | null = null;
  for (;;) {
    const seen = await stat(answer).then((s) => `${s.size}:${s.mtimeMs}`, () => null);
    // Read once it is the same on two looks in a row: a writer in the middle of it is not done.
    if (seen !== null && seen === last) return readFile(answer, 'utf8');
    last = seen;
    const now = Date.now();
    // Past the deadline an answer already there still gets its second look: only a missing one is
    // late, and one that keeps changing, once it had its stated seconds more (never another slice).
    if (now >= deadline && seen === null) {
      throw new ProposerError(`No answer: ${answer} was not written within ${options.timeoutMinutes} min of ${join(dir, `request-${n}.md`)} (feedbackTimeoutMinutes)`);
    }
    if (now >= settleBy) {
      throw new ProposerError(`No answer: ${answer} was still changing ${changingSeconds} s past its deadline, ${options.timeoutMinutes} min after ${join(dir, `request-${n}.md`)} (feedbackTimeoutMinutes): write it whole, to another name and then rename it`);
    }
    if (now >= sliceEnd && now < deadline) throw new AnswerPending(`still waiting for ${answer} (until ${new Date(deadline).toISOString()})`);
    await pause(seen === null ? Math.min(pollMs, Math.max(1, deadline - now)) : pollMs);
  }
}
