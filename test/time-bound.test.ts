/**
 * The execution's 24 hours against the whole search (functions/shared/cost/time-bound.ts; issue 42,
 * item 8): every Task of the definition at its timeout, with the retries it makes for time, read
 * from the rendered definition itself; the proposer's requests, the checks, the promotions and the
 * reflections that the seed-runs' estimate left out; the race's heirs, one after another.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidSearchInput, parseSearchInput } from '../functions/shared/input/search-input.ts';
import { visitSeconds, worstCaseSeconds } from '../functions/shared/cost/time-bound.ts';
import { estimateSearch } from '../functions/shared/cost/estimate.ts';
import { SEARCH_TIMEOUT_SECONDS } from '../infra/config.ts';
import { definitionAsl, taskStates, type JsonObject } from '../infra/workflow-asl.ts';
import { LAMBDA_TASK_STATES, STATE } from '../infra/workflow-names.ts';
import { getTask, TASK_IDS } from '../tasks/registry.ts';

const OFFLINE = { proposer: 'offline' } as const;

interface Retrier { ErrorEquals: string[]; IntervalSeconds?: number; MaxAttempts?: number; BackoffRate?: number; MaxDelaySeconds?: number }

/** The longest one visit takes by the definition: its TimeoutSeconds at each attempt its retries for running out of time allow, and the longest waits between. */
function longestVisit(state: JsonObject): number {
  const forTime = ((state.Retry ?? []) as unknown as Retrier[]).filter((r) => r.ErrorEquals.some((e) => e === 'States.Timeout' || e === 'Propose.OutOfTime'));
  let seconds = Number(state.TimeoutSeconds);
  for (const r of forTime) {
    for (let k = 0; k < (r.MaxAttempts ?? 3); k++) {
      seconds += Number(state.TimeoutSeconds) + Math.min(r.MaxDelaySeconds ?? Infinity, (r.IntervalSeconds ?? 1) * (r.BackoffRate ?? 2) ** k);
    }
  }
  return seconds;
}

describe('Function: the worst case of a whole search, against the execution\'s 24 hours', () => {
  it('counts every Task of the definition at its timeout, with each retry the definition makes when it ran out of time', () => {
    const tasks = taskStates(definitionAsl().States);
    const modelVisits = visitSeconds({ proposer: 'anthropic', repair: true });
    const offlineVisits = visitSeconds({ proposer: 'offline', repair: true });
    const counted = new Set<string>();
    for (const [name, state] of tasks) {
      const role = name === STATE.announce ? 'announce' : LAMBDA_TASK_STATES[name];
      assert.ok(role !== undefined, `${name}: a Task the worst case does not know`);
      // The seed-runs' chunks are the estimate's (at the measured speed); the pause is the input's timeout.
      if (role === 'trainSeed' || role === 'feedback') continue;
      assert.ok(role in modelVisits, `${name} (${role}) is counted`);
      counted.add(role);
      assert.equal(modelVisits[role as keyof typeof modelVisits], longestVisit(state), `${name}: its timeout and its retries for time`);
      // The offline proposer streams nothing: no visit of it is retried for time.
      assert.equal(offlineVisits[role as keyof typeof offlineVisits], Number(state.TimeoutSeconds), `${name} with the offline proposer`);
    }
    assert.deepEqual([...counted].sort(), Object.keys(modelVisits).sort(), 'every Task the worst case counts is in the definition');
  });

  it('refuses a search whose seed-runs fit but whose proposals, checks, promotions and reflections at their timeouts do not, saying what it counted', () => {
    // MountainCar trains in seconds; 20 generations of 16 candidates with a model take far longer to propose, check and promote.
    const input = { task: 'MountainCar-v0', generations: 20, candidates: 16, proposer: 'anthropic' };
    const task = getTask(input.task);
    let message = '';
    try {
      parseSearchInput(input, OFFLINE);
    } catch (error) {
      assert.ok(error instanceof InvalidSearchInput);
      message = error.message;
    }
    assert.match(message, /^Invalid search input: the search's worst case is about \d+ h \d+ min: (?:\d+ h )?\d+ min(?: \d+ s)? of seed-runs on AWS at "maxConcurrency" 80 \(.*\), (\d+) h \d+ min of the other states at their timeouts \(each generation's proposal, checks, repair, plan, promotions and reflection, with the retries for time; the start, the finish and the publishing\), more than the execution's 24 h: .*at most (\d+) "generations" would fit$/);
    const [, fit] = /at most (\d+) "generations"/.exec(message) ?? [];
    // What it names fits, and one more does not; the seed-runs alone would have fitted 24 hours many times over.
    const fitting = parseSearchInput({ ...input, generations: Number(fit) }, OFFLINE);
    assert.ok(worstCaseSeconds(fitting, task).total <= SEARCH_TIMEOUT_SECONDS);
    assert.throws(() => parseSearchInput({ ...input, generations: Number(fit) + 1 }, OFFLINE), InvalidSearchInput);
    const everyCandidate = { ...task, budget: { ...task.budget, raceSurvival: 1 } };
    const settings = { ...fitting, generations: 20 };
    assert.ok(estimateSearch(settings, everyCandidate, { cores: null, region: 'us-east-1', firstPromptChars: null }).aws.seconds < SEARCH_TIMEOUT_SECONDS / 10);
  });

  it('counts the heirs of a race, each training on to the budget after the one before faulted', () => {
    // 16 racers over 10,000,000-step seed-runs at 320 at once: every rung is one wave, but 15 heirs a generation train one after another.
    const input = { task: 'LunarLander-v3', generations: 4, candidates: 16, seeds: 1, steps: 10_000_000, maxConcurrency: 320 };
    const task = getTask(input.task);
    const raced = { ...parseSearchInput({ ...input, generations: 1 }, OFFLINE), generations: input.generations };
    const worst = worstCaseSeconds(raced, task);
    const everyCandidate = estimateSearch(raced, { ...task, budget: { ...task.budget, raceSurvival: 1 } }, { cores: null, region: 'us-east-1', firstPromptChars: null }).aws.seconds;
    assert.ok(everyCandidate + worst.states < SEARCH_TIMEOUT_SECONDS / 2, 'without its heirs the race would fit, twice over');
    // Each heir trains at least the budget's last two thirds (from the second rung), one seed-run's wave each.
    const lastTwoThirds = estimateSearch({ ...raced, generations: 1, candidates: 1, racing: false, steps: input.steps * 2 / 3 },
      task, { cores: null, region: 'us-east-1', firstPromptChars: null }).aws.seconds / 3;
    assert.ok(worst.seedRuns - everyCandidate >= input.generations * 15 * lastTwoThirds, `the heirs: ${Math.round(worst.seedRuns - everyCandidate)} s`);
    assert.throws(() => parseSearchInput(input, OFFLINE), /then every heir of a faulted finalist\).*"racing": false \(no heirs train one after another\) would fit$/);
    assert.ok(worstCaseSeconds(parseSearchInput({ ...input, racing: false }, OFFLINE), task).total <= SEARCH_TIMEOUT_SECONDS);
  });

  it('counts a person answering through files:DIR as a pause: every request waited for to its deadline', () => {
    const settings = parseSearchInput({ task: 'MountainCar-v0', generations: 2, feedbackTimeoutMinutes: 30 }, OFFLINE);
    const asked = worstCaseSeconds({ ...settings, proposer: 'files', model: '/tmp' }, getTask(settings.task));
    // Two generations, each a proposal and a repair.
    assert.equal(asked.pauses, 4 * 30 * 60);
    assert.equal(worstCaseSeconds(settings, getTask(settings.task)).pauses, 0);
  });

  it('accepts every task\'s default search, with a model and pausing for feedback at the default timeout', () => {
    for (const task of TASK_IDS) {
      const settings = parseSearchInput({ task, proposer: 'anthropic', feedback: 'wait' }, OFFLINE);
      const worst = worstCaseSeconds(settings, getTask(task));
      assert.ok(worst.total <= SEARCH_TIMEOUT_SECONDS, `${task}: ${JSON.stringify(worst)}`);
    }
  });
});
