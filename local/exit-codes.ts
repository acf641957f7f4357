/**
 * The `eureka` command line's exit codes, for scripts (DESIGN §7), as linters and test runners
 * give theirs: 0 only when the command did what was asked and the result is good. docs/cli.md
 * has the table per command, and test/exit-codes.test.ts runs every row of it.
 */
export const EXIT = {
  /** The command did what was asked, and the result is good. */
  ok: 0,
  /** Anything else went wrong (one line on stderr): a search that failed, AWS, a port that does not conform. */
  failure: 1,
  /** Bad usage (one line on stderr): a flag, a file, a task or a search id that is not there or not valid. */
  usage: 2,
  /** check-reward: the sandbox check rejected the reward (it timed out, ran out of memory, threw or returned no reward). */
  checkRejected: 3,
  /** check-reward: the check passed, and the screen fails the reward (it prefers a failure of the task's bank). */
  screenFails: 4,
  /** train: the seed-run did not train (outcome timeout, memory or error: a reward that does not parse, say). */
  notTrained: 5,
  /** search: it finished without a winner, no candidate trained (the card, summary.json and the last line say why). */
  noWinner: 6,
  /** search: stopped with Ctrl-C (128 + SIGINT, as a shell reports it), after one line that says how to resume it. */
  interrupted: 130,
  /** Any command: the reader closed stdout before everything was written (128 + SIGPIPE, as a Unix tool ends). */
  pipeClosed: 141,
} as const;

/** What `eureka --help` prints under the commands. */
export const EXIT_CODES_HELP = `
Exit codes (docs/cli.md):
    0  the command did what was asked, and the result is good
    1  any other failure (one line on stderr); conformance: the port is not within tolerance
    2  bad usage (one line on stderr)
    3  check-reward: the sandbox check rejected the reward
    4  check-reward: the check passed, the screen fails the reward (it prefers a failure)
    5  train: the seed-run did not train (timeout, memory or error)
    6  search: it finished without a winner: no candidate trained (the last line says why)
  130  search: stopped with Ctrl-C (the line before says how to resume it)
  141  the reader closed the pipe before everything was written (as on SIGPIPE)`;
