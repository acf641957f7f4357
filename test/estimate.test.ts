/**
 * `--estimate`: what a search would train and cost, before anything trains. The steps without
 * racing are exact (a real search's summary.json says the same), the race's model gives what the
 * raced searches measured, the model's worst case is what the ceiling reserves, and the card and
 * `eureka show` put the estimate beside what the search spent.
 */
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { estimateSearch, LOCAL_CONCURRENT_SPEED } from '../functions/shared/cost/estimate.ts';
import { FUNCTION_CAPS } from '../infra/config.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import type { SearchSettings } from '../functions/shared/search/contracts.ts';
import { firstPromptChars } from '../local/commands/estimate.ts';
import { MODEL_MAX_TOKENS } from '../functions/shared/cost/worst-case.ts';
import { createAnthropicProposer } from '../functions/propose/anthropic.ts';
import { spentUsd } from '../functions/propose/budget.ts';
import { propose } from '../functions/propose/propose.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { answer, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';
import { realStore } from './support/real-store.ts';
import { getTask } from '../tasks/registry.ts';
import type { Task } from '../tasks/contract.ts';
import { eureka } from './support/eureka-cli.ts';

const settings = (input: object, proposer: SearchSettings['proposer'] = 'offline') =>
  parseSearchInput(input, { proposer, local: true }) as SearchSettings;
const HERE = { cores: 2, region: 'us-east-1', firstPromptChars: null };
const withPrompt = (config: SearchSettings) => ({ ...HERE, firstPromptChars: firstPromptChars(config) });
const withSurvival = (task: Task, raceSurvival: number): Task => ({ ...task, budget: { ...task.budget, raceSurvival } });

describe('estimate: the search before it starts', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('counts every seed-run of the default MountainCar search: the 21,678,080 steps a search without racing measured', () => {
    const e = estimateSearch(settings({}), getTask('MountainCar-v0'), HERE);
    assert.deepEqual(e.seedRuns, { baselines: 10, candidates: 120, fresh: 15, total: 145 });
    assert.equal(e.steps.fullBudget, 21_678_080);
    assert.ok(e.steps.raced < e.steps.fullBudget);
    const trainingOnly = (e.steps.raced / (e.stepsPerSecond * LOCAL_CONCURRENT_SPEED)) * (FUNCTION_CAPS.trainSeed.memoryMb / 1024);
    assert.ok(e.local!.gbSeconds > trainingOnly * 1.1, 'every Map item\'s fixed cost is in the GB-seconds, as in the wall time');
    const human = estimateSearch(settings({ humanInit: [{ name: 'mine', code: 'function computeReward(){return [0,{}];}' }] }), getTask('MountainCar-v0'), HERE);
    assert.equal(human.seedRuns.candidates, 125, 'a human reward trains with generation 1');
  });

  it('runs here at most maxConcurrency seed-runs at once, as the local runtime does: maxConcurrency 1 on 2 cores is one core\'s time', () => {
    const task = getTask('MountainCar-v0');
    const one = estimateSearch(settings({ maxConcurrency: 1 }), task, HERE).local!;
    const twoCores = estimateSearch(settings({}), task, HERE).local!;
    assert.deepEqual(one, estimateSearch(settings({}), task, { ...HERE, cores: 1 }).local);
    assert.equal(one.cores, 1);
    assert.ok(one.seconds > 1.5 * twoCores.seconds, `${one.seconds} s against ${twoCores.seconds} s`);
  });

  it('races as the definition does: with no race, or a task whose every candidate stays in, every step; the top third only, the 0.45 measured before the evidence rule', () => {
    const task = getTask('CartPole-v1');
    const shape = { task: 'CartPole-v1', generations: 3, candidates: 6, seeds: 3, freshSeeds: 3 };
    const off = estimateSearch(settings({ ...shape, racing: false }), task, HERE);
    assert.equal(off.steps.raced, off.steps.fullBudget);
    assert.equal(off.steps.raceSurvival, null);
    const all = estimateSearch(settings(shape), withSurvival(task, 1), HERE);
    assert.equal(all.steps.raced, all.steps.fullBudget);
    const topThird = estimateSearch(settings(shape), withSurvival(task, 0), HERE);
    assert.equal(Number((topThird.steps.raced / topThird.steps.fullBudget).toFixed(2)), 0.45);
    const recorded = estimateSearch(settings(shape), task, HERE);
    assert.ok(recorded.steps.raced > topThird.steps.raced && recorded.steps.raced < all.steps.raced);
  });

  it('says how many generations a small ceiling covers, and prices nothing for the offline proposer', () => {
    const fourConfig = settings({ maxCostUsd: 3 }, 'anthropic');
    const four = estimateSearch(fourConfig, getTask('MountainCar-v0'), withPrompt(fourConfig)).model!;
    assert.equal(four.requests, 8);
    assert.ok(four.usd! > 3);
    assert.ok(four.generationsCovered! >= 1 && four.generationsCovered! < 4, `covered ${four.generationsCovered}`);
    const offlineConfig = settings({});
    assert.equal(estimateSearch(offlineConfig, getTask('MountainCar-v0'), withPrompt(offlineConfig)).model!.usd, 0);
    assert.equal(estimateSearch(offlineConfig, getTask('MountainCar-v0'), HERE).model, null, 'without the prompt there is no model part');
  });

  it('prices TrainSeed on AWS from the region\'s table, and says so when the region has no price', () => {
    const config = settings({ task: 'LunarLander-v3' });
    const e = estimateSearch(config, getTask('LunarLander-v3'), { cores: null, region: 'us-east-1', firstPromptChars: null });
    assert.equal(e.local, null);
    assert.ok(e.aws.gbSeconds > 0 && e.aws.usd! > 0);
    assert.equal(estimateSearch(config, getTask('LunarLander-v3'), { cores: null, region: 'xx-nowhere-1', firstPromptChars: null }).aws.usd, null);
  });

  it('search --estimate trains nothing; start --estimate needs no AWS; bad input is refused by name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-estimate-'));
    dirs.push(dir);
    const data = join(dir, 'data');
    const ran = await eureka(['search', '--estimate', '--json', '--data-dir', data]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(JSON.parse(ran.stdout).estimate.steps.fullBudget, 21_678_080);
    await assert.rejects(access(data), 'nothing was written');
    const text = await eureka(['search', '--estimate', '--task', 'LunarLander-v3', '--smoke']);
    assert.match(text.stdout, /environment steps: 2,162,688 without racing/);
    assert.match(text.stdout, /this machine, \d+ seed-runs at once: about/);

    const aws = await eureka(['start', '--estimate', '--json', '--input', '{"task":"LunarLander-v3"}'], { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: '', AWS_PROFILE: 'nobody' });
    assert.equal(aws.code, 0, aws.stderr);
    const e = JSON.parse(aws.stdout).estimate;
    assert.equal(e.local, null);
    assert.equal(e.aws.region, 'eu-west-1');
    assert.equal(e.model.ceilingUsd, 10, 'the stack\'s ceiling applies to an input without one');

    for (const [args, message] of [
      [['search', '--estimate', '--resume', 'x'], /^eureka: --estimate and --resume/],
      [['start', '--estimate', '--input', '{"seeds":11}'], /^eureka: --input: Invalid search input: "seeds" must be at most 10/],
    ] as const) {
      const bad = await eureka([...args]);
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.stderr, message);
    }
  });

  it('a search keeps its estimate, and the card and eureka show set it beside what it spent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-estimate-run-'));
    dirs.push(dir);
    const args = ['--generations', '1', '--candidates', '3', '--seeds', '1', '--fresh-seeds', '1', '--steps', '20480', '--no-hostile', '--data-dir', dir];
    const before = JSON.parse((await eureka(['search', '--estimate', '--json', ...args])).stdout).estimate;
    const ran = await eureka(['search', '--json', '--search-id', 'est', ...args]);
    assert.equal(ran.code, 0, ran.stderr);
    const summary = JSON.parse(await readFile(join(dir, 'bucket', 'searches', 'est', 'winner', 'summary.json'), 'utf8'));
    assert.equal(summary.estimate.steps.fullBudget, summary.stepsFullBudget, 'exact without racing');
    assert.equal(before.steps.fullBudget, summary.stepsFullBudget);
    assert.ok(summary.seedRunSeconds > 0);
    const card = await readFile(join(dir, 'bucket', 'searches', 'est', 'winner', 'card.md'), 'utf8');
    assert.match(card, /Estimated before it started: about [\d,]+ environment steps, .* GB-seconds of seed-runs \(this machine, \d+ at once\); it trained [\d,]+ in /);
    // Issue 22: the card tells how the winner's episodes ended and what the proposer wrote first.
    assert.match(card, /## How the winner's episodes ended\n\nTraining episodes on the fresh seeds, seed 10000\. Succeeded: they did reach the flag; /);
    assert.match(card, /\| ran out of time \| \d+% \| \d+% \| /);
    assert.match(card, /- seed 10000: of 20 episodes, \d+% succeeded/);
    assert.doesNotMatch(card, /## What the proposer said/, 'the offline proposer writes no analysis');
    const shown = await eureka(['show', 'est', '--data-dir', dir]);
    assert.match(shown.stdout, /estimated before it started: [\d,]+ steps \([\d,]+ without racing\), .*; spent: [\d,]+ steps/);
    const json = JSON.parse((await eureka(['show', 'est', '--json', '--data-dir', dir])).stdout);
    assert.equal(json.estimate.steps.fullBudget, summary.stepsFullBudget);
  });
});

/** Every character of text a request sent (system and messages), as the server received it. */
function sentChars(body: Record<string, unknown>): number {
  const count = (x: unknown): number => (typeof x === 'string' ? x.length : Array.isArray(x) ? x.reduce((n: number, y) => n + count(y), 0)
    : x !== null && typeof x === 'object' ? Object.entries(x).reduce((n, [k, v]) => n + (k === 'text' || k === 'content' || k === 'system' ? count(v) : 0), 0) : 0);
  return count(body.system) + count(body.messages);
}

describe('estimate: the model\'s worst case against the budget that reserves it (the real SDK on a loopback server, a real table)', () => {
  const storeOf = realStore('eureka-estimate-model-').store;
  let server: MessagesApiServer;
  before(async () => { server = await startMessagesApiServer(); });
  after(() => server.close());
  const shape = { proposer: 'anthropic', model: 'claude-sonnet-5-5', generations: 1, repair: false, candidates: 3, includeHostile: false };
  const modelUsd = (input: object) => {
    const config = settings({ ...shape, ...input }, 'anthropic');
    return estimateSearch(config, getTask(config.task), withPrompt(config)).model!.usd!;
  };
  const start = async (searchId: string, input: object) =>
    initSearch(storeOf(), { kind: 'init', executionName: searchId, input: { ...shape, ...input } }, 'anthropic');
  const anthropic = async (config: SearchSettings) => createAnthropicProposer({
    apiKey: 'sk-ant-test-estimate', model: config.model, baseURL: server.url, maxRetries: 0,
    ...(config.thinkingBudget === undefined ? {} : { thinkingBudget: config.thinkingBudget }),
  });
  const code = 'function computeReward(obs, action, nextObs, terminated) {\n  return [nextObs[0] - obs[0], { progress: nextObs[0] - obs[0] }];\n}\n';
  const three = JSON.stringify({ candidates: ['a', 'b', 'c'].map((name) => ({ name, idea: `idea ${name}`, code })) });

  it('lets generation 1\'s request through at the estimate\'s worst case, thinking included, and refuses it at the worst case without thinking', async () => {
    const withThinking = modelUsd({ thinkingBudget: 8000 });
    const without = modelUsd({});
    assert.ok(withThinking > without);
    server.requests.length = 0;
    server.script = [answer(three)];
    await start('at-worst', { thinkingBudget: 8000, maxCostUsd: withThinking * (1 + 1e-9) });
    const sent = await propose(storeOf(), { searchId: 'at-worst', generation: 1 }, anthropic);
    assert.equal(sent.checks.length, 3);
    assert.equal(server.requests.length, 1);
    await start('below', { thinkingBudget: 8000, maxCostUsd: without * (1 + 1e-9) });
    await assert.rejects(propose(storeOf(), { searchId: 'below', generation: 1 }, anthropic), /does not cover the first request/);
    assert.equal(server.requests.length, 1, 'nothing sent');
  });

  it('bounds what the worst request bills: an answer at the output cap that breaks the schema, and its repair at the cap, counted at the server', async () => {
    // About 3 characters a token, the densest the worst case assumes, for the prompts and the answer alike.
    const atCap = JSON.stringify({ candidates: [{ name: 'x', idea: 'y'.repeat(MODEL_MAX_TOKENS * 3 - 40) }] });
    const counted = { usageOf: (body: Record<string, unknown>) => ({ input_tokens: Math.ceil(sentChars(body) / 3), output_tokens: MODEL_MAX_TOKENS }) };
    server.requests.length = 0;
    server.script = [answer(atCap, counted), answer(atCap, counted)];
    await start('worst', {});
    await assert.rejects(propose(storeOf(), { searchId: 'worst', generation: 1 }, anthropic), /did not match the schema, also after a repair request/);
    assert.equal(server.requests.length, 2, 'one request and its one repair');
    const billed = (await spentUsd(storeOf(), 'worst'))!;
    const worst = modelUsd({});
    assert.ok(billed <= worst, `billed $${billed} against a worst case of $${worst}`);
    assert.ok(billed >= 0.9 * worst, `the worst case is close to the worst bill: $${billed} against $${worst}`);
  });
});
