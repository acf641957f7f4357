/**
 * The model's prompt (DESIGN §6), after Eureka: a reward engineer's system message; the task with
 * its dynamics, metric and trainer; the exact signature and the sandbox's rules; K. From generation
 * 2 the reflection on the search so far (reflection.ts, the same text the offline proposer reads).
 */
import { createHash } from 'node:crypto';
import { SEARCH_DEFAULTS } from '../shared/search-input.ts';
import type { ProposeContext } from './proposer.ts';
import { reflectionText } from './reflection.ts';

/** The function every candidate defines; the sandbox looks it up by this name. */
export const REWARD_SIGNATURE = 'function computeReward(obs, action, nextObs, terminated)';

/** What the sandbox accepts (mirrors its limits in functions/train-seed). */
export const REWARD_RULES = {
  /** Most distinct term names a reward may return. */
  maxTerms: 16,
  /** Longest term name. */
  maxTermNameLength: 48,
  /** Largest candidate source, in UTF-8 bytes. */
  maxCodeBytes: 64 * 1024,
} as const;

/** The training budget the prompt states; the proposer's settings fill it in. */
export interface PromptBudget {
  /** Environment steps of PPO per seed-run. @default 150000 */
  steps: number;
  /** Seeds each candidate trains on. @default 5 */
  seeds: number;
  /** Greedy evaluation episodes per seed-run. @default 20 */
  evalEpisodes: number;
}

export const DEFAULT_PROMPT_BUDGET: Readonly<PromptBudget> = Object.freeze({
  steps: SEARCH_DEFAULTS.steps,
  seeds: SEARCH_DEFAULTS.seeds,
  evalEpisodes: SEARCH_DEFAULTS.evalEpisodes,
});

export interface Prompt {
  system: string;
  user: string;
}

const SYSTEM = [
  'You are a reward engineer trying to write reward functions to solve reinforcement learning tasks as effectively as possible.',
  'Your goal is to write reward functions for the environment below that will help a PPO agent learn the task, as the task metric measures it.',
  'The reward functions are JavaScript and run in a locked-down sandbox, so they must follow the rules exactly.',
  'Each answer is a list of candidate reward functions, each with a short name, its idea and its code.',
].join(' ');

function taskSection(budget: PromptBudget): string {
  const updates = Math.floor(budget.steps / (16 * 128));
  return `# The task: MountainCar-v0 (Gymnasium)
A car starts at the bottom of a valley between two hills and must reach the flag on top of the right hill. Its engine is too weak to drive straight up: it has to swing back and forth to build up momentum.

## Observation
obs = [position, velocity], two numbers (32-bit floats).
- position in [-1.2, 0.6]; the flag is at position 0.5; the track's height at position p is sin(3p), so the valley bottom is near -0.52.
- velocity in [-0.07, 0.07]; positive is to the right.

## Actions
action = 0 (push left), 1 (no push) or 2 (push right).

## Dynamics (one step, exactly as Gymnasium)
    velocity += (action - 1) * 0.001 - 0.0025 * cos(3 * position)
    velocity  = clip(velocity, -0.07, 0.07)
    position += velocity
    position  = clip(position, -1.2, 0.6)
    if position == -1.2 and velocity < 0: velocity = 0     (the left wall stops the car)
An episode starts at a position drawn uniformly from [-0.6, -0.4) with velocity 0. It ends when position >= 0.5 (the flag: terminated is true on that step) or after 200 steps (the time limit: terminated stays false). The environment's own reward is -1 on every step; with it alone PPO does not find the flag within this budget.

## How your reward is judged
After training, trusted code runs the greedy policy for ${budget.evalEpisodes} evaluation episodes on start states never used in training. The task metric is the share of these episodes that reach the flag within 200 steps, averaged over ${budget.seeds} training seeds (a seed whose training failed counts 0); ties are broken by fewer steps to the flag. The policy is never graded on the reward you write: your reward only shapes what PPO learns, and it is never called during grading.

## The learner
PPO (CleanRL-style) with separate 64-64 tanh actor and critic networks, observations scaled to about [-1, 1], 16 parallel environments x 128 steps per update, discount gamma 0.99, GAE lambda 0.95, clip 0.2, entropy bonus 0.01, 4 epochs of 4 minibatches, Adam with learning rate 2.5e-4. Training budget: ${budget.steps} environment steps per seed (${updates} updates; at least ${Math.floor(budget.steps / 200)} episodes, as an episode lasts at most 200 steps).`;
}

function rulesSection(): string {
  const r = REWARD_RULES;
  return `# The reward function
Write JavaScript that defines exactly this function at the top level (constants and helper functions may sit beside it):

\`\`\`javascript
${REWARD_SIGNATURE} {
  // obs, nextObs: [position, velocity] before and after the step
  // action: 0, 1 or 2, the action taken in obs
  // terminated: true only on the step that reaches the flag
  const shaping = ...;
  const goal = terminated ? ... : 0;
  return [shaping + goal, { shaping, goal }];
}
\`\`\`

Rules:
- It is called once per environment step with that step's transition. When an episode ends, nextObs is its final observation, not the start of the next episode.
- It is a pure function: the same arguments give the same result, and it keeps no state between calls.
- Use only Math and plain JavaScript (numbers, arrays, objects, functions). There are no other globals: no require, import, process, fetch, console, Date, timers or I/O.
- Keep it cheap: a few arithmetic operations per call. Every call has a deadline and each training run has a total time budget; no long loops, big arrays or recursion.
- Return [total, terms]: total is the reward (a finite number) and terms is an object of named reward terms, for example { shaping: 0.3, goal: 0 }. Use at most ${r.maxTerms} term names of at most ${r.maxTermNameLength} characters; every value must be a finite number. Normally total is the sum of the terms. The terms are tracked through training and reported back to you, so name each meaningful component.
- A function that throws, runs past its deadline, uses too much memory, or returns a non-finite or malformed value ends its candidate, which then scores 0.
- At most ${r.maxCodeBytes / 1024} KiB of code per candidate.`;
}

function answerSection(k: number, improving: boolean): string {
  const what = improving
    ? `Write ${k} new candidate reward functions that improve on the best reward function so far, using the feedback above. You may refine the best one (rescale, rewrite or drop terms as the statistics suggest) or try different ideas where it failed.`
    : `Write ${k} candidate reward functions. Make them different from each other, so the search explores several ideas at once.`;
  return `# Your answer
${what}
K = ${k}: answer with exactly ${k} candidates, each with:
- name: a short, unique kebab-case name (for example energy-shaping-goal),
- idea: one or two sentences on what the reward encourages and why it should help PPO reach the flag,
- code: the complete JavaScript source that defines computeReward.`;
}

/** The system message and the user message for one generation. */
export function buildPrompt(context: ProposeContext, budget: PromptBudget = DEFAULT_PROMPT_BUDGET): Prompt {
  const sections = [taskSection(budget), rulesSection()];
  const improving = context.generation > 1;
  if (improving) {
    sections.push(
      `# Feedback from the search so far (before generation ${context.generation})\n` +
        reflectionText(context.best, context.scoreboard, context.bestByGeneration).trimEnd(),
    );
  }
  sections.push(answerSection(context.k, improving));
  return { system: SYSTEM, user: sections.join('\n\n') + '\n' };
}

/** sha256 of the model and both messages: tells whether a cached answer answered the same question. */
export function promptHash(model: string, prompt: Prompt): string {
  return createHash('sha256').update(JSON.stringify([model, prompt.system, prompt.user])).digest('hex');
}
