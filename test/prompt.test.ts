/**
 * The model's prompt (DESIGN §6), the same words for every task: the task's description and the
 * environment's own source without its reward, the observation layout and action type, the success
 * test, the signature and its rules, K; the reflection from generation 2.
 */
import assert from 'node:assert/strict';
import { ppoConfigFor } from '../core/ppo-config.ts';
import { describe, it } from 'node:test';
import { buildPrompt, buildRepairPrompt, promptHash, REWARD_SIGNATURE } from '../functions/propose/prompt.ts';
import { reflectionText } from '../functions/shared/words/reflection.ts';
import { getTask, TASKS } from '../tasks/registry.ts';
import { BEST, GEN1, GEN2 } from './support/contexts.ts';

describe('Function: buildPrompt', () => {
  it('casts the model as a reward engineer in the system message', () => {
    const { system } = buildPrompt(GEN1);
    assert.match(system, /reward engineer/);
    assert.match(system, /reward functions/);
  });

  it('shows the task: its description, the environment\'s own source, the observation, the actions and the metric', () => {
    const { user } = buildPrompt(GEN1);
    const task = getTask('MountainCar-v0');
    for (const text of [
      '# The task: MountainCar-v0 (Gymnasium)',
      task.description,
      'velocity += (action[0] - 1) * FORCE + Math.cos(3 * position) * -GRAVITY;',
      'export const GRAVITY = 0.0025;',
      'if (position === MIN_POSITION && velocity < 0) velocity = 0;',
      'cut off after 200 steps',
      'obs is an array of 2 numbers',
      '| 0 | position | [-1.2, 0.6] |',
      'action is a number: 0 (push left), 1 (no push) or 2 (push right).',
      task.success.describe,
      'share of evaluation episodes that reach the flag',
      'equal success is decided by higher progress (the highest position the car reached along the track (the flag is at 0.5)), then fewer steps in the successful episodes, then how early in training it learned',
      'never graded on the reward',
      'gamma 0.99',
      'Training budget: 150000 environment steps per seed',
    ]) {
      assert.ok(user.includes(text), `missing: ${text}`);
    }
  });

  it('leaves the environment\'s own reward out of the source, as Eureka does', () => {
    const { user } = buildPrompt(GEN1);
    assert.ok(!user.includes('const reward = -1.0'), 'the reward line is pruned');
    assert.ok(!user.includes('reward:begin'), 'and its markers');
    assert.ok(user.includes('const terminated = position >= GOAL_POSITION'), 'the rest of step stays');
  });

  it('speaks each task\'s own words, and no other task\'s', () => {
    for (const task of TASKS) {
      const { user } = buildPrompt({ ...GEN1, task: task.id });
      assert.ok(user.includes(`# The task: ${task.id} (Gymnasium)`), task.id);
      assert.ok(user.includes(task.environmentSource.trimEnd()), `${task.id}: its environment source`);
      assert.ok(user.includes(task.success.describe), `${task.id}: its success test`);
      assert.ok(user.includes(`discount gamma ${ppoConfigFor(task, 0, 1).gamma},`), `${task.id}: the discount its PPO trains with`);
      for (const d of task.observation) assert.ok(user.includes(`| ${d.name} |`), `${task.id}: observation ${d.name}`);
      if (!task.id.startsWith('MountainCar')) {
        assert.doesNotMatch(user, /mountain ?car|flag|valley/i, `${task.id}: no MountainCar words`);
      }
    }
  });

  it('states a continuous action as an array of clipped numbers', () => {
    const { user } = buildPrompt({ ...GEN1, task: 'Pendulum-v1' });
    assert.ok(user.includes('action is an array of 1 number: [torque], torque in [-2, 2], as the environment applied it'));
    assert.ok(user.includes('a diagonal Gaussian policy'));
  });

  it('gives the exact signature and its rules', () => {
    const { user } = buildPrompt(GEN1);
    assert.ok(user.includes(`${REWARD_SIGNATURE} {`));
    assert.equal(REWARD_SIGNATURE, 'function computeReward(obs, action, nextObs, terminated)');
    assert.ok(user.includes('// obs, nextObs: [position, velocity] before and after the step'));
    assert.match(user, /pure function/);
    assert.match(user, /Use only Math/);
    assert.match(user, /no require, import, process, fetch/);
    assert.match(user, /Return \[total, terms\]/);
    assert.match(user, /at most 16 term names/);
    assert.match(user, /finite number/);
    assert.match(user, /At most 64 KiB/);
  });

  it('asks for the analysis first, before any code, and says what to read in it', () => {
    const first = buildPrompt(GEN1).user;
    const later = buildPrompt(GEN2).user;
    for (const user of [first, later]) {
      const answer = user.slice(user.indexOf('# Your answer'));
      assert.match(answer, /a JSON object of two fields, in this order:\n- analysis \(write it first, before any code\)/);
      assert.ok(answer.indexOf('- analysis') < answer.indexOf('- candidates'));
    }
    assert.match(later, /For each term of the best reward so far, what its statistics say/);
    assert.match(later, /what the episodes' lengths and endings say/);
    assert.match(first, /what the task needs from a reward/);
    assert.match(buildPrompt(GEN1).system, /your analysis first/);
  });

  it('asks for exactly K candidates', () => {
    assert.match(buildPrompt(GEN1).user, /K = 6: answer with exactly 6 candidates/);
    assert.match(buildPrompt({ ...GEN1, k: 3 }).user, /K = 3: answer with exactly 3 candidates/);
  });

  it('states the training budget it is given', () => {
    const { user } = buildPrompt({ ...GEN1, budget: { steps: 60_000, seeds: 2, evalEpisodes: 10 } });
    assert.match(user, /Training budget: 60000 environment steps per seed \(29 updates/);
    assert.match(user, /averaged over 2 training seeds/);
    assert.match(user, /for 10 evaluation episodes/);
  });

  it('has no reflection in generation 1', () => {
    const { user } = buildPrompt(GEN1);
    assert.doesNotMatch(user, /Best reward function so far/);
    assert.doesNotMatch(user, /Feedback from the search/);
    assert.doesNotMatch(user, /improve on/);
  });

  it('reflects on the search from generation 2 and asks to improve on the best', () => {
    const { user } = buildPrompt(GEN2);
    const task = getTask('MountainCar-v0');
    assert.ok(user.includes(reflectionText(task, GEN2).trimEnd()), 'the reflection, verbatim');
    assert.ok(user.includes(BEST.candidate.code.trimEnd()), 'the best code');
    assert.match(user, /seed 1: 0\.95, seed 2: 0\.8, seed 3: 0 \(timeout: total sandbox budget of 60 s exceeded\)/);
    assert.match(user, /mean highest position: 0\.432 \(the flag is at 0\.5\)/);
    assert.match(user, /progress, mean highest position: 0\.432 \(the flag is at 0\.5\)/);
    assert.match(user, /mean return on the environment's own reward \(not what it is ranked by\): -151/);
    assert.match(user, /shaping: \['0\.12', '3\.44'/, 'the term series');
    assert.match(user, /mean per step early 0\.12, late 30\)/);
    assert.match(user, /hostile_exfiltrate \| 0 \| error: ReferenceError: process is not defined/);
    assert.match(user, /generation 1: 0\.57 \(g1-energy-shaping-2\); best so far 0\.57/);
    assert.match(user, /improve on the best reward function so far/);
    assert.ok(user.indexOf('Feedback from the search') < user.indexOf('# Your answer'), 'the answer request comes last');
  });
});

describe('Function: promptHash', () => {
  it('is the same for the same question, and changes with the model, K, the reflection or the task', () => {
    const hash = promptHash('claude-sonnet-4-5', buildPrompt(GEN2));
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(promptHash('claude-sonnet-4-5', buildPrompt(structuredClone(GEN2))), hash);
    assert.notEqual(promptHash('claude-opus-4-5', buildPrompt(GEN2)), hash);
    assert.notEqual(promptHash('claude-sonnet-4-5', buildPrompt({ ...GEN2, k: 5 })), hash);
    assert.notEqual(promptHash('claude-sonnet-4-5', buildPrompt({ ...GEN2, scoreboard: [] })), hash);
    assert.notEqual(promptHash('claude-sonnet-4-5', buildPrompt({ ...GEN2, task: 'CartPole-v1' })), hash);
  });

  it('does not depend on the random seed, which the model never sees', () => {
    assert.equal(promptHash('m', buildPrompt({ ...GEN1, randomSeed: 7 })), promptHash('m', buildPrompt(GEN1)));
  });
});

describe('Function: buildPrompt with a person\'s feedback', () => {
  const words = 'It swings up, then overshoots and falls: penalize the speed near the top.';

  it('puts the words beside the automatic reflection, first, and says whose they are', () => {
    const { user } = buildPrompt({ ...GEN2, feedback: words });
    const said = user.indexOf(`## What a person said after watching generation ${GEN2.generation - 1}`);
    const best = user.indexOf('Best reward function so far');
    assert.ok(said > 0 && best > said, 'the person first, then the statistics');
    assert.ok(user.includes(words));
    assert.match(user, /follow the person/);
  });

  it('has no such section without words, nor in generation 1', () => {
    assert.doesNotMatch(buildPrompt(GEN2).user, /What a person said/);
    assert.doesNotMatch(buildPrompt({ ...GEN1, feedback: words }).user, /What a person said/);
  });
});

describe('Function: buildRepairPrompt', () => {
  const failed = [
    { name: 'typo-name', idea: 'speed', code: 'function computeReward(o, a, n, t) {\n  return [velocty, {}];\n}\n', reason: "reward threw at step 0: ReferenceError: 'velocty' is not defined (at line 2)" },
    { name: 'bare-number', idea: '', code: 'function computeReward(o, a, n, t) { return 1; }', reason: 'reward returned a malformed value at step 0: expected [total, terms] or {reward, terms}, got number' },
  ];

  it('carries each failed candidate\'s code and reason, the rules, and asks for as many fixes under the same names', () => {
    const { system, user } = buildRepairPrompt({ ...GEN1, generation: 2, failed });
    assert.equal(system, buildPrompt(GEN1).system);
    for (const f of failed) {
      assert.ok(user.includes(`## ${f.name}`));
      assert.ok(user.includes(f.code.trimEnd()));
      assert.ok(user.includes(`Why it failed: ${f.reason}`));
    }
    assert.match(user, /Idea: \(none given\)/);
    assert.match(user, /first an analysis \(for each candidate, what made it fail and what you change\), then exactly 2 candidates, one per failed candidate, each with the same name/);
    assert.ok(user.includes(REWARD_SIGNATURE), 'the rules of a reward');
    assert.match(user, /# The task/, 'and the task, source included');
  });
});

describe('Function: buildPrompt says what it knows of the task', () => {
  const lander = buildPrompt({ ...GEN1, task: 'LunarLander-v3' }).user;

  it('shows each observation\'s typical range beside its bounds', () => {
    assert.ok(lander.includes('| index | meaning | bounds | typical range |'));
    assert.ok(lander.includes('| 2 | horizontal velocity | [-10, 10] | [-2, 2] |'), 'the typical range, not only the bounds');
    assert.ok(lander.includes('| 4 | angle | [-6.28, 6.28] | [-1.5, 1.5] |'), 'three significant digits');
    assert.ok(buildPrompt(GEN1).user.includes('| 0 | position | [-1.2, 0.6] | [-1.2, 0.6] |'), 'the bounds where no typical range is given');
  });

  it('names the observation entries the policy does not see, as ranges, and only where a task hides some', () => {
    assert.ok(buildPrompt({ ...GEN1, task: 'Ant-v5' }).user.includes('The policy does not see entries 27-104: they are in obs and nextObs for your reward'));
    for (const id of ['Hopper-v5', 'LunarLander-v3']) assert.ok(!buildPrompt({ ...GEN1, task: id }).user.includes('does not see entries'), id);
  });

  it('gives the exact return that judges the policy where success is a return, from the task folder', () => {
    const task = getTask('LunarLander-v3');
    assert.ok(task.success.returnFormula !== undefined);
    assert.ok(lander.includes(task.success.returnFormula.trimEnd()), 'the task\'s own formula, verbatim');
    assert.match(lander, /reward = shaping\(nextObs\) - shaping\(obs\) - 0\.3 \* mainPower - 0\.03 \* sidePower/);
    assert.match(lander, /it is the judge, not a reward to copy/);
    assert.match(buildPrompt({ ...GEN1, task: 'LunarLanderContinuous-v3' }).user, /mainPower is \(min\(action\[0\], 1\) \+ 1\) \/ 2 when action\[0\] > 0/);
    for (const t of TASKS) {
      const judgedByReturn = /return on the environment's own reward/.test(t.success.describe);
      assert.equal(t.success.returnFormula !== undefined, judgedByReturn, `${t.id}: a formula exactly where success is a return`);
      assert.equal(buildPrompt({ ...GEN1, task: t.id }).user.includes('The return that judges the policy'), judgedByReturn, t.id);
    }
  });

  it('says in words what a steady per-step term is worth under the task\'s own discount, where episodes end early', () => {
    assert.match(lander, /with gamma 0\.999, from an episode's start it is worth up to c \* \(1 - gamma\^1000\) \/ \(1 - gamma\) = 632c/);
    assert.match(lander, /a steady \+c per step pays the policy to avoid both and run to the time limit/);
    const cart = buildPrompt({ ...GEN1, task: 'CartPole-v1' }).user;
    assert.match(cart, /ends early only on a failure: a steady -c per step pays the policy to fail early/);
    assert.match(buildPrompt(GEN1).user, /with gamma 0\.99, .* = 86\.6c over the 200-step limit/);
    assert.doesNotMatch(buildPrompt({ ...GEN1, task: 'Pendulum-v1' }).user, /Per-step terms and the discount/, 'its episodes always run to the limit');
  });
});
