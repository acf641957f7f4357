/** The search's execution input: defaults, the smoke shorthand, and one-line errors a user can act on. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  costCeilingUsd,
  InvalidSearchInput,
  parseSearchInput,
  SEARCH_DEFAULTS,
  type SearchInput,
} from '../functions/shared/input/search-input.ts';
import { DEFAULT_BEDROCK_MODEL_ID, DEFAULT_MODEL_ID, SEARCH_TIMEOUT_SECONDS } from '../infra/config.ts';
import { getTask, TASK_IDS } from '../tasks/registry.ts';
import { historyBound, historyProblem } from '../functions/shared/cost/history-bound.ts';
import { worstCaseSeconds } from '../functions/shared/cost/time-bound.ts';
import { estimateSearch } from '../functions/shared/cost/estimate.ts';
import { HISTORY_EVENT_BUDGET } from '../infra/history-events.ts';
import { HOSTILE_CANDIDATE_COUNT } from '../infra/config.ts';
import { HOSTILE_CANDIDATES } from '../functions/propose/hostile.ts';

const OFFLINE = { proposer: 'offline' } as const;

const DEFAULTS: SearchInput = {
  task: 'MountainCar-v0',
  generations: 4,
  candidates: 6,
  seeds: 5,
  steps: 150_000,
  evalEpisodes: 20,
  includeHostile: true,
  proposer: 'offline',
  model: DEFAULT_MODEL_ID,
  // K x S: a generation's seed-runs at once (default-concurrency.ts).
  maxConcurrency: 30,
  randomSeed: 0,
  humanInit: [],
  repair: true,
  screen: 'report',
  feedback: 'none',
  feedbackTimeoutMinutes: 60,
  racing: { eta: 3, rungs: 3 },
  maxCostUsd: null,
};

/** The message parseSearchInput throws for raw, after checking it is an InvalidSearchInput. */
function rejection(raw: unknown): string {
  try {
    parseSearchInput(raw, OFFLINE);
  } catch (error) {
    assert.ok(error instanceof InvalidSearchInput, `threw ${String(error)}`);
    assert.equal(error.name, 'InvalidSearchInput');
    assert.doesNotMatch(error.message, /\n/, 'one line');
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(raw)}`);
}

describe('Function: parseSearchInput', () => {
  it('defaults the model by proposer: an Anthropic id, or a Bedrock inference profile', () => {
    assert.equal(parseSearchInput({}, { proposer: 'anthropic' }).model, DEFAULT_MODEL_ID);
    assert.equal(parseSearchInput({ proposer: 'bedrock' }, OFFLINE).model, DEFAULT_BEDROCK_MODEL_ID);
    assert.equal(parseSearchInput({ proposer: 'bedrock', model: 'x.y' }, OFFLINE).model, 'x.y');
  });

  describe('defaults', () => {
    const cases: Array<[string, unknown, Partial<SearchInput>]> = [
      ['an empty object gets every default (DESIGN §1)', {}, {}],
      ['no input at all is an empty object', undefined, {}],
      ['explicit fields replace their defaults only, and the concurrency follows K x S',
        { candidates: 16, seeds: 5, steps: 2048 }, { candidates: 16, steps: 2048, maxConcurrency: 80 }],
      // 15 generations of 16 candidates, each state at its timeout, are the most the execution's 24 hours take (time-bound.ts).
      ['the maximum configuration (K=16, S=5) is accepted',
        { candidates: 16, seeds: 5, generations: 15, maxConcurrency: 40 },
        { candidates: 16, generations: 15, maxConcurrency: 40 }],
      ['a searchId is passed through', { searchId: 'nightly_2025-06-11' }, { searchId: 'nightly_2025-06-11' }],
      ['an explicit proposer wins over the caller\'s default',
        { proposer: 'bedrock', model: 'anthropic.claude-sonnet-4-5-v1:0' },
        { proposer: 'bedrock', model: 'anthropic.claude-sonnet-4-5-v1:0' }],
      ['hostile candidates can be turned off', { includeHostile: false }, { includeHostile: false }],
      ['a human init without an idea gets an empty one',
        { humanInit: [{ name: 'energy', code: 'export default 1' }] },
        { humanInit: [{ name: 'energy', idea: '', code: 'export default 1' }], maxConcurrency: 35 }],
      ['a full 32-bit random seed is accepted', { randomSeed: 2 ** 32 - 1 }, { randomSeed: 2 ** 32 - 1 }],
      ['smoke: false changes nothing', { smoke: false }, {}],
      ['an effort level is passed through (absent by default)', { effort: 'medium' }, { effort: 'medium' }],
      ['a thinking budget is passed through (absent, off, by default)', { thinkingBudget: 8000 }, { thinkingBudget: 8000 }],
    ];
    for (const [name, raw, changes] of cases) {
      it(name, () => assert.deepEqual(parseSearchInput(raw, OFFLINE), { ...DEFAULTS, ...changes }));
    }

    it('takes the proposer default from the caller', () => {
      assert.equal(parseSearchInput({}, { proposer: 'anthropic' }).proposer, 'anthropic');
    });

    it('agrees with the exported defaults and the task\'s budget', () => {
      const { proposer: _proposer, humanInit: _humanInit, model: _model, steps, evalEpisodes, maxConcurrency, ...rest } = DEFAULTS;
      assert.deepEqual(rest, SEARCH_DEFAULTS);
      assert.equal(maxConcurrency, SEARCH_DEFAULTS.candidates * SEARCH_DEFAULTS.seeds);
      assert.deepEqual({ steps, evalEpisodes }, { steps: getTask('MountainCar-v0').budget.steps, evalEpisodes: getTask('MountainCar-v0').budget.evalEpisodes });
    });

    it('takes steps and evaluation episodes from the task\'s own budget, smoke steps included', () => {
      for (const id of TASK_IDS) {
        const { budget } = getTask(id);
        const parsed = parseSearchInput({ task: id }, OFFLINE);
        assert.deepEqual([parsed.task, parsed.steps, parsed.evalEpisodes], [id, budget.steps, budget.evalEpisodes], id);
        assert.equal(parseSearchInput({ task: id, smoke: true }, OFFLINE).steps, budget.smokeSteps, `${id} smoke`);
        assert.equal(parseSearchInput({ task: id, steps: 4096 }, OFFLINE).steps, 4096, `${id} explicit steps`);
      }
    });

    it('does not let an explicit undefined erase a default', () => {
      assert.deepEqual(parseSearchInput({ candidates: undefined, smoke: undefined }, OFFLINE), DEFAULTS);
    });
  });

  describe('smoke shorthand', () => {
    const SMOKE = { generations: 2, candidates: 3, seeds: 2, steps: 60_000, maxConcurrency: 6 };
    const cases: Array<[string, Record<string, unknown>, Partial<SearchInput>]> = [
      ['applies G=2, K=3, S=2 and 60,000 steps', { smoke: true }, SMOKE],
      ['keeps fields given explicitly',
        { smoke: true, candidates: 5, steps: 4096 }, { ...SMOKE, candidates: 5, steps: 4096, maxConcurrency: 10 }],
      ['leaves the other defaults alone', { smoke: true, evalEpisodes: 7 }, { ...SMOKE, evalEpisodes: 7 }],
    ];
    for (const [name, raw, changes] of cases) {
      it(name, () => assert.deepEqual(parseSearchInput(raw, OFFLINE), { ...DEFAULTS, ...changes }));
    }
  });

  describe('the stack\'s spending ceiling', () => {
    const ON_AWS = { proposer: 'anthropic' as const, costCeilingUsd: 10 };
    it('applies whenever the input gives none, and a search\'s own ceiling may only lower it', () => {
      assert.equal(parseSearchInput({}, ON_AWS).maxCostUsd, 10);
      assert.equal(parseSearchInput({ maxCostUsd: 4 }, ON_AWS).maxCostUsd, 4);
      assert.equal(parseSearchInput({ maxCostUsd: 10 }, ON_AWS).maxCostUsd, 10);
      assert.throws(() => parseSearchInput({ maxCostUsd: 50 }, ON_AWS),
        /^InvalidSearchInput: Invalid search input: "maxCostUsd" must be at most 10, the stack's ceiling \(cdk deploy -c maxCostUsd=\.\.\.\) \(got 50\)$/);
      assert.equal(parseSearchInput({}, OFFLINE).maxCostUsd, null, 'a search started here by its owner has none unless asked');
    });

    it('reads the ceiling the stack sets, and refuses one that is not a positive number', () => {
      assert.equal(costCeilingUsd(undefined), null);
      assert.equal(costCeilingUsd('2.5'), 2.5);
      for (const bad of ['', 'ten', '0', '-3', 'Infinity']) assert.throws(() => costCeilingUsd(bad), /EUREKA_MAX_COST_USD must be a number of US dollars/, bad);
    });
  });

  describe('pauses within the execution\'s limit', () => {
    it('accepts G-1 pauses that leave 12 hours of the 24-hour execution to the search, and no more, at every G', () => {
      let refusedForTime = 0;
      for (let generations = 2; generations <= 20; generations++) {
        const most = Math.floor((12 * 60 / (generations - 1)) * 10) / 10;
        try {
          const accepted = parseSearchInput({ feedback: 'wait', generations, feedbackTimeoutMinutes: most }, OFFLINE);
          assert.ok((accepted.generations - 1) * accepted.feedbackTimeoutMinutes * 60 + 12 * 3600 <= SEARCH_TIMEOUT_SECONDS, `G=${generations}`);
        } catch (error) {
          // The 12 hours left hold fewer generations of every state at its timeout than 20: the whole worst case refuses those.
          assert.match(String(error), /of pauses \(for feedback, or for a person's answers\), more than the execution's 24 h/, `G=${generations}`);
          refusedForTime += 1;
        }
        assert.throws(() => parseSearchInput({ feedback: 'wait', generations, feedbackTimeoutMinutes: most + 0.1 }, OFFLINE), /"feedbackTimeoutMinutes" must be at most/, `G=${generations}`);
      }
      assert.ok(refusedForTime < 19, 'the pauses\' rule decides for the smaller searches');
    });

    it('lets a day-long timeout stand where no pause is made', () => {
      assert.equal(parseSearchInput({ feedback: 'none', feedbackTimeoutMinutes: 1440 }, OFFLINE).feedbackTimeoutMinutes, 1440);
      assert.equal(parseSearchInput({ feedback: 'wait', generations: 1, feedbackTimeoutMinutes: 1440 }, OFFLINE).feedbackTimeoutMinutes, 1440);
    });
  });

  describe('rejections', () => {
    const cases: Array<[string, unknown, string]> = [
      ['too many candidates, and an unknown field with a near-miss name', { candidates: 40, candidate: 3 },
        'Invalid search input: "candidates" must be at most 16 (got 40); ' +
          'unknown field "candidate" (did you mean "candidates"?)'],
      ['a number given as a string', { generations: '4' }, '"generations" must be a whole number (got "4")'],
      ['an unknown task, naming the known ones', { task: 'Pong-v5' },
        `"task" must be one of the known tasks: ${TASK_IDS.join(', ')} (got "Pong-v5")`],
      ['a task renamed since, naming its new id', { task: 'Hopper-BackFlip-v0' },
        '"task" must be one of the known tasks: "Hopper-BackFlip-v0" was renamed Hopper-FrontFlip-v0, as its success test (the torso angle reaching +2π) was always a forward turn (docs/behaviours.md, "The flip\'s direction")'],
      ['a task that is not a string', { task: 3 }, '"task" must be a string (got 3)'],
      ['a cost ceiling that is not positive', { maxCostUsd: 0 }, '"maxCostUsd" must be more than 0 (got 0)'],
      ['a cost ceiling given as a string', { maxCostUsd: '5' }, '"maxCostUsd" must be a number (got "5")'],
      ['an unknown feedback mode', { feedback: 'ask' }, '"feedback" must be one of "none", "wait" (got "ask")'],
      ['a feedback timeout of nothing', { feedbackTimeoutMinutes: 0 }, '"feedbackTimeoutMinutes" must be more than 0 (got 0)'],
      ['a feedback timeout past the execution\'s day', { feedbackTimeoutMinutes: 1441 }, '"feedbackTimeoutMinutes" must be at most 1440 (got 1441)'],
      ['pauses that would outlast the execution', { feedback: 'wait', feedbackTimeoutMinutes: 1440 },
        '"feedbackTimeoutMinutes" must be at most 240 with feedback "wait" and 4 generations: its 3 pauses must leave 12 h of the execution\'s 24 h to the search itself (got 1440)'],
      ['the default timeout with too many pauses', { feedback: 'wait', generations: 20 },
        '"feedbackTimeoutMinutes" must be at most 37.8 with feedback "wait" and 20 generations: its 19 pauses must leave 12 h of the execution\'s 24 h to the search itself (got 60)'],
      ['a feedback timeout in words', { feedbackTimeoutMinutes: '5' }, '"feedbackTimeoutMinutes" must be a number (got "5")'],
      ['a fraction', { seeds: 2.5 }, '"seeds" must be a whole number (got 2.5)'],
      ['NaN', { steps: Number.NaN }, '"steps" must be a whole number (got NaN)'],
      ['null for a field', { evalEpisodes: null }, '"evalEpisodes" must be a whole number (got null)'],
      ['zero generations', { generations: 0 }, '"generations" must be at least 1 (got 0)'],
      ['21 generations', { generations: 21 }, '"generations" must be at most 20 (got 21)'],
      ['eleven seeds', { seeds: 11 }, '"seeds" must be at most 10 (got 11)'],
      ['too few steps', { steps: 2047 }, '"steps" must be at least 2048 (got 2047)'],
      ['too many steps', { steps: 10_000_001 }, '"steps" must be at most 10000000 (got 10000001)'],
      ['racing that is neither false nor rungs', { racing: true }, '"racing" must be false (no racing) or {"eta": 2 to 8, "rungs": 2 to 5}'],
      ['racing with too small an eta', { racing: { eta: 1 } }, '"racing.eta" must be at least 2 (got 1)'],
      ['racing with too many rungs', { racing: { rungs: 6 } }, '"racing.rungs" must be at most 5 (got 6)'],
      ['a chunk smaller than a rollout', { chunkSteps: 100 }, '"chunkSteps" must be at least 2048 (got 100)'],
      ['too many evaluation episodes', { evalEpisodes: 101 }, '"evalEpisodes" must be at most 100 (got 101)'],
      ['concurrency over 320', { maxConcurrency: 321 }, '"maxConcurrency" must be at most 320 (got 321)'],
      ['a negative seed', { randomSeed: -1 }, '"randomSeed" must be at least 0 (got -1)'],
      ['a seed beyond 32 bits', { randomSeed: 2 ** 32 }, '"randomSeed" must be at most 4294967295 (got 4294967296)'],
      ['a string for a boolean', { includeHostile: 'yes' }, '"includeHostile" must be true or false (got "yes")'],
      ['an unknown proposer',
        { proposer: 'gpt' }, '"proposer" must be offline, anthropic, bedrock, command:CMD or files:DIR (got "gpt")'],
      ['an empty model', { model: '' }, '"model" must not be empty'],
      ['an unknown effort level',
        { effort: 'extreme' }, '"effort" must be one of "low", "medium", "high", "xhigh", "max" (got "extreme")'],
      ['a thinking budget under the API\'s smallest', { thinkingBudget: 500 }, '"thinkingBudget" must be at least 1024 (got 500)'],
      ['a thinking budget past the answer\'s room', { thinkingBudget: 50_000 }, '"thinkingBudget" must be at most 32000 (got 50000)'],
      ['a searchId with a space',
        { searchId: 'my search' }, '"searchId" must be 1 to 80 letters, digits, "_" or "-" (got "my search")'],
      ['a searchId that is too long',
        { searchId: 'x'.repeat(81) },
        `"searchId" must be 1 to 80 letters, digits, "_" or "-" (got "${'x'.repeat(40)}…")`],
      ['smoke as a string', { smoke: 'true' }, '"smoke" must be true or false (got "true")'],
      ['an unknown field with no near miss', { colour: 'red' }, 'unknown field "colour"'],
      ['a misspelt field', { maxConcurency: 3 }, 'unknown field "maxConcurency" (did you mean "maxConcurrency"?)'],
      ['null input', null, 'Invalid search input: the input must be an object (got null)'],
      ['a list as input', [], 'the input must be an object (got a list)'],
      ['a string as input', '{"candidates":3}', 'the input must be an object (got "{\\"candidates\\":3}")'],
      ['humanInit not a list', { humanInit: 'energy.js' }, '"humanInit" must be a list (got "energy.js")'],
      ['a human init without a name', { humanInit: [{ code: 'x' }] }, '"humanInit[0].name" is required'],
      ['a human init name over 64 characters',
        { humanInit: [{ name: 'n'.repeat(65), code: 'x' }] },
        '"humanInit[0].name" must be at most 64 characters (got 65)'],
      ['a human init idea over 500 characters',
        { humanInit: [{ name: 'n', idea: 'i'.repeat(501), code: 'x' }] },
        '"humanInit[0].idea" must be at most 500 characters (got 501)'],
      ['a human init with empty code',
        { humanInit: [{ name: 'n', code: '' }] }, '"humanInit[0].code" must not be empty'],
      ['human init code over 64 KiB',
        { humanInit: [{ name: 'n', code: 'é'.repeat(33_000) }] },
        '"humanInit[0].code" must be at most 64 KiB of UTF-8 (got 64.5 KiB)'],
      ['an unknown field inside a human init',
        { humanInit: [{ name: 'n', code: 'x', ideas: '' }] },
        'unknown field "humanInit[0].ideas" (did you mean "idea"?)'],
      ['human init code over 128 KiB in total',
        { humanInit: [1, 2, 3].map((i) => ({ name: `h${i}`, code: 'x'.repeat(50_000) })) },
        '"humanInit" must total at most 128 KiB of code (got 146.5 KiB; ' +
          'Step Functions caps the data it carries at 256 KiB)'],
      ['17 human inits',
        { humanInit: Array.from({ length: 17 }, (_, i) => ({ name: `h${i}`, code: 'x' })) },
        '"humanInit" must have at most 16 items (got 17)'],
    ];
    for (const [name, raw, expected] of cases) {
      it(`rejects ${name}`, () => {
        const message = rejection(raw);
        if (expected.startsWith('Invalid search input: ')) assert.equal(message, expected);
        else assert.equal(message, `Invalid search input: ${expected}`);
      });
    }

    it('names every bad field at once', () => {
      const message = rejection({ candidates: 0, seeds: 19, proposer: 'x', extra: 1 });
      const parts = [
        '"candidates" must be at least 1',
        '"seeds" must be at most 10',
        '"proposer" must be offline, anthropic, bedrock, command:CMD or files:DIR',
        'unknown field "extra"',
      ];
      for (const part of parts) assert.ok(message.includes(part), `${part} in ${message}`);
      assert.equal(message.split('; ').length, 4);
    });

    it('keeps the problems as a list for callers that render them', () => {
      try {
        parseSearchInput({ candidates: 0, extra: 1 }, OFFLINE);
        assert.fail('accepted');
      } catch (error) {
        assert.ok(error instanceof InvalidSearchInput);
        assert.deepEqual(error.problems, ['"candidates" must be at least 1 (got 0)', 'unknown field "extra"']);
      }
    });
  });
});

describe('Function: parseSearchInput, against the 25,000-event execution history', () => {
  const largest = { task: 'MountainCar-v0', generations: 20, candidates: 16, seeds: 10, racing: false, maxConcurrency: 320,
    humanInit: Array.from({ length: 16 }, (_, i) => ({ name: `human-${i}`, code: 'function computeReward() { return [0, {}]; }' })) };

  it('refuses issue 23\'s seed-run of 34,178 events, naming the quota and what would fit', () => {
    assert.equal(rejection({ ...largest, steps: 10_000_000, chunkSteps: 2048 }),
      'Invalid search input: "steps" 10,000,000 in chunks of 2,048 ("chunkSteps") is 4,882 TrainSeed invocations a seed-run, 34,178 history events ' +
      'in its child execution, over the 22,500 of Step Functions\' 25,000 history events per execution (2,500 of them kept for retries) an input\'s ' +
      'worst case may use: "chunkSteps" of at least 4,096 fit these steps, and "steps" of at most 6,582,271 these chunks');
  });

  it('accepts what it says fits, and refuses a rollout less', () => {
    for (const [steps, chunkSteps] of [[10_000_000, 4096], [6_582_271, 2048]]) {
      const settings = { ...parseSearchInput({ ...largest, generations: 1, steps: 100_000 }, OFFLINE), generations: 20, steps, chunkSteps };
      const bound = historyBound(settings, getTask('MountainCar-v0'));
      assert.ok(bound.seedRun <= HISTORY_EVENT_BUDGET && bound.search <= HISTORY_EVENT_BUDGET, `${steps} in ${chunkSteps}: ${JSON.stringify(bound)}`);
      assert.equal(historyProblem(settings, getTask('MountainCar-v0')), null);
      // 20 generations of so many seed-runs of these steps pass the execution's 24 hours instead (what "Start the search" says).
      assert.match(rejection({ ...largest, steps, chunkSteps }), /more than the execution's 24 h: at most \d+ "generations" would fit$/);
    }
    assert.match(rejection({ ...largest, steps: 10_000_000, chunkSteps: 4095 }), /4,882 TrainSeed invocations/);
    assert.match(rejection({ ...largest, steps: 6_582_272, chunkSteps: 2048 }), /3,214 TrainSeed invocations a seed-run, 22,502 history events/);
  });

  it('names the task\'s own chunks when the input gives none', () => {
    // CartPole-v1 rolls out 512 steps; its measured speed makes chunks of 999,936.
    const message = rejection({ task: 'CartPole-v1', steps: 10_000_000, chunkSteps: 2048 });
    assert.match(message, /in chunks of 2,048 \("chunkSteps"\) is 4,883 TrainSeed invocations/);
    assert.doesNotThrow(() => parseSearchInput({ task: 'CartPole-v1', steps: 10_000_000 }, OFFLINE));
  });

  it('keeps the search\'s own history within its share at the largest input (20 generations, 34 checks, 5 rungs, every pause)', () => {
    // The shape alone: so many seed-runs of 10,000,000 steps pass the execution's 24 hours (the test above).
    const settings = { ...parseSearchInput({ ...largest, generations: 1, steps: 100_000 }, OFFLINE),
      generations: 20, steps: 10_000_000, chunkSteps: 4096, racing: { eta: 2, rungs: 5 }, feedback: 'wait' as const, feedbackTimeoutMinutes: 1 };
    const bound = historyBound(settings, getTask('MountainCar-v0'));
    assert.ok(bound.search <= HISTORY_EVENT_BUDGET, `${bound.search}`);
    // Past the schema's 20 generations it would not: the same check, with what would fit.
    assert.match(historyProblem({ ...settings, generations: 60 }, getTask('MountainCar-v0')) ?? '',
      /^the search's worst case is 36,409 history events in its own execution, over the 22,500 .* at most 36 "generations" fit/);
  });

  it('counts the hostile candidates the history bound assumes', () => {
    assert.equal(HOSTILE_CANDIDATES.length, HOSTILE_CANDIDATE_COUNT);
  });
});

describe('Function: parseSearchInput, against the execution\'s 24 hours', () => {
  // LunarLander-v3, 8 generations of 16 candidates on 10 seeds of 10,000,000 steps, not raced: about 56 hours of seed-runs 10 at once.
  const long = { task: 'LunarLander-v3', generations: 8, candidates: 16, seeds: 10, steps: 10_000_000, racing: false, maxConcurrency: 10 };
  const task = getTask('LunarLander-v3');

  it('refuses an input whose worst case cannot finish inside them, naming what it counted and what would fit', () => {
    const message = rejection(long);
    assert.match(message, /^Invalid search input: the search's worst case is about (\d+) h \d+ min: \d+ h \d+ min of seed-runs on AWS at "maxConcurrency" 10 \(the estimate at the task's measured speed, every candidate trained to the budget at every rung\), \d+ h \d+ min of the other states at their timeouts \(.*\), more than the execution's 24 h: "maxConcurrency" of at least (\d+), or at most (\d+) "generations" would fit$/);
    const [, hours, concurrency, generations] = /about (\d+) h .* at least (\d+), or at most (\d+)/.exec(message) ?? [];
    assert.ok(Number(hours) >= 24, hours);
    // What it says fits, fits, by the worst case it names; one less does not.
    for (const fitting of [{ ...long, maxConcurrency: Number(concurrency) }, { ...long, generations: Number(generations) }]) {
      const settings = parseSearchInput(fitting, OFFLINE);
      assert.ok(worstCaseSeconds(settings, task).total <= SEARCH_TIMEOUT_SECONDS, JSON.stringify(fitting));
    }
    assert.throws(() => parseSearchInput({ ...long, maxConcurrency: Number(concurrency) - 1 }, OFFLINE), InvalidSearchInput);
    assert.throws(() => parseSearchInput({ ...long, generations: Number(generations) + 1 }, OFFLINE), InvalidSearchInput);
  });

  it('decides on the estimate\'s AWS wall time at the input\'s concurrency with every candidate to the budget, not the raced expectation, and adds a race\'s heirs', () => {
    const here = { cores: null, region: 'us-east-1', firstPromptChars: null };
    const everyCandidate = { ...task, budget: { ...task.budget, raceSurvival: 1 } };
    const unraced = parseSearchInput({ ...long, maxConcurrency: 320 }, OFFLINE);
    assert.equal(worstCaseSeconds(unraced, task).seedRuns, estimateSearch(unraced, everyCandidate, here).aws.seconds);
    const raced = { ...unraced, racing: { eta: 3, rungs: 3 } };
    assert.ok(estimateSearch(raced, everyCandidate, here).aws.seconds >= estimateSearch(raced, task, here).aws.seconds);
    assert.ok(worstCaseSeconds(raced, task).seedRuns > estimateSearch(raced, everyCandidate, here).aws.seconds);
  });

  it('counts the pauses for feedback in the worst case', () => {
    // 4 generations at 20 at once: about 18 hours of seed-runs and other states, which 3 pauses of 4 hours (the most the pauses may take) pass.
    const paused = { ...long, generations: 4, maxConcurrency: 20, feedback: 'wait' };
    const worst = worstCaseSeconds(parseSearchInput({ ...paused, feedbackTimeoutMinutes: 1 }, OFFLINE), task);
    assert.ok(worst.seedRuns + worst.states > 12 * 3600 && worst.total < 24 * 3600 - 180, JSON.stringify(worst));
    assert.match(rejection({ ...paused, feedbackTimeoutMinutes: 240 }), /every candidate trained to the budget at every rung\), .* and 12 h 0 min of pauses \(for feedback, or for a person's answers\), more than the execution's 24 h/);
  });
});

describe('The screen setting', () => {
  it('takes report, repair or skip; refuses anything else by name, and repair without the repair', () => {
    assert.equal(parseSearchInput({ screen: 'skip' }, { proposer: 'offline' }).screen, 'skip');
    assert.throws(() => parseSearchInput({ screen: 'always' }, { proposer: 'offline' }), /"screen" must be one of "report", "repair", "skip" \(got "always"\)/);
    assert.throws(() => parseSearchInput({ screen: 'repair', repair: false }, { proposer: 'offline' }), /"screen": "repair" sends a candidate back with the generation's repair, which "repair": false turns off/);
  });
});
