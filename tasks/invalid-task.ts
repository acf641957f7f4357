/**
 * A task's own fault, not a reward's: a folder that does not load, its success test or progress
 * throwing or returning the wrong kind, a robot whose simulation goes unstable. A search says it as
 * the task's (functions/train-seed/candidate-check.ts), never as every candidate's failure.
 */
export class InvalidTask extends Error {
  override readonly name = 'InvalidTask';
}
