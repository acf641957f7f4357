/**
 * Test hooks for the kill-and-resume test (test/kill-resume.test.ts, scripts/kill-resume.ts) and the
 * worker pool's (test/train-seed-pool.test.ts),
 * inert unless their environment variables are set:
 *
 *   EUREKA_TEST_MOMENTS_LOG=FILE  every moment reached is appended to FILE ("moment<TAB>identity").
 *   EUREKA_TEST_HOLD=FILE         FILE is JSON {moment, identities, marker}: the first time this
 *                                 process reaches `moment` with one of `identities`, it writes
 *                                 `marker` and holds still (the whole process, synchronously) until
 *                                 the test kills it, so the kill lands exactly there.
 *
 * The moments: a TrainSeed worker's Init begun, its handler not loaded ("init", identity "worker"),
 * a seed-run's invocation begun ("invoked"), a chunk training ("chunk"; "chunk-stored" once its checkpoint or result is), a checkpoint about to be written
 * ("checkpoint-write"), Reflect after its candidates' records and before its summary ("reflect"),
 * Publish after the card and before summary.json ("publish"). The loopback model server of the
 * test places the model request's moment itself.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

interface Hold { moment: string; identities: string[]; marker: string }

/** The variables, which the local runtime hands its TrainSeed workers (they are unset outside these tests). */
export const TEST_HOOK_VARS = ['EUREKA_TEST_MOMENTS_LOG', 'EUREKA_TEST_HOLD'] as const;

const LOG = process.env.EUREKA_TEST_MOMENTS_LOG;
const HOLD_FILE = process.env.EUREKA_TEST_HOLD;
let hold: (Hold & { set: Set<string> }) | null | undefined;

function holdSpec(): (Hold & { set: Set<string> }) | null {
  if (hold === undefined) {
    const spec = HOLD_FILE === undefined ? null : (JSON.parse(readFileSync(HOLD_FILE, 'utf8')) as Hold);
    hold = spec === null ? null : { ...spec, set: new Set(spec.identities) };
  }
  return hold;
}

/** The moment `moment` of the work `identity`: logged, and held there when a test asked for it. */
export function testMoment(moment: string, identity: string): void {
  if (LOG === undefined && HOLD_FILE === undefined) return;
  if (LOG !== undefined) appendFileSync(LOG, `${moment}\t${identity}\n`);
  const spec = holdSpec();
  if (spec === null || spec.moment !== moment || !spec.set.has(identity)) return;
  writeFileSync(spec.marker, `${moment}\t${identity}\n`);
  // Frozen here, event loop and all, until the test's SIGKILL.
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
