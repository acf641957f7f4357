/**
 * Step Functions' execution history: a hard quota of 25,000 events per execution, and a Distributed
 * Map's every child execution has 25,000 of its own. What one visit of each kind of state appends
 * is below, as AWS records it (GetExecutionHistory of real executions: the recordings localstack's
 * snapshot tests keep, tests/aws/services/stepfunctions/v2/). The local runtime counts with these
 * (local/history-count.ts), and the worst case of an input is bounded with them
 * (functions/shared/cost/history-bound.ts). Plain values only: init reads them in its Lambda.
 */

/** Step Functions' quota; event 25,000 may only be ExecutionSucceeded, else the execution fails. */
export const HISTORY_EVENT_LIMIT = 25_000;

/** What AWS fails an execution with at its 25,000th event (error, cause), as its history shows. */
export const HISTORY_LIMIT_ERROR = {
  error: 'States.Runtime',
  cause: `The execution reached the maximum number of history events (${HISTORY_EVENT_LIMIT}).`,
} as const;

/**
 * What an input's worst case may use of the limit: the worst case counts every Task once, and each
 * retry of one appends 3 events more (scheduled, started, failed), so 2,500 events (833 retries in
 * one execution) are kept for the retries of throttling, service errors and retired processes.
 */
export const HISTORY_EVENT_BUDGET = HISTORY_EVENT_LIMIT - 2_500;

/** The events one visit of a state appends to its execution's history, by kind of visit. */
export const VISIT_EVENTS = {
  /** ExecutionStarted, ExecutionSucceeded (a Distributed Map's child too). */
  execution: 2,
  /** TaskStateEntered, (Lambda|Task)Scheduled, Started, Succeeded or Failed, TaskStateExited: a Catch costs nothing more. */
  task: 5,
  /** A .waitForTaskToken Task adds TaskSubmitted. */
  tokenTask: 6,
  /** Each retry of a Task: Scheduled, Started, Failed again. */
  retry: 3,
  /** PassStateEntered and Exited; the same for a Choice. */
  pass: 2,
  choice: 2,
  /** MapStateEntered, MapStateStarted, MapStateSucceeded, MapStateExited, plus each iteration's own. */
  inlineMap: 4,
  /** MapIterationStarted and MapIterationSucceeded around an inline iteration's states. */
  inlineIteration: 2,
  /** A Distributed Map in its parent: the inline Map's four and MapRunStarted, MapRunSucceeded. */
  distributedMap: 6,
} as const;

/** The events of an inline Map over `items` iterations of `perItem` events each. */
export const inlineMapEvents = (items: number, perItem: number): number =>
  VISIT_EVENTS.inlineMap + items * (VISIT_EVENTS.inlineIteration + perItem);

/**
 * One seed-run's iteration ("Train one seed" -> "More chunks?" per chunk, then "Seed trained"),
 * a Distributed Map child of its own: a fault ends it sooner and costs less (Task, a Catch's Pass).
 */
export const seedRunChildEvents = (chunks: number): number =>
  VISIT_EVENTS.execution + chunks * (VISIT_EVENTS.task + VISIT_EVENTS.choice) + VISIT_EVENTS.pass;

/** One check's iteration at its costliest: its Task caught, and the Pass that makes the verdict. */
export const CHECK_ITERATION_EVENTS = VISIT_EVENTS.task + VISIT_EVENTS.pass;
