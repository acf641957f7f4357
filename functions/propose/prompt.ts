/**
 * The model's prompt (DESIGN §6), after Eureka: the same words for every task. A reward engineer's
 * system message; the task's description and the environment's own source (Eureka's
 * environment-as-context, with its reward left out); the observation layout with its typical
 * ranges and the action type; how the policy is judged (the exact return, where success is one) and
 * trained, and what a per-step term is worth under the discount (prompt-facts.ts); the exact
 * signature and the sandbox's rules; K. From generation 2 the reflection on the search so far
 * (reflection.ts, which the offline proposer reads).
 */
import { createHash } from 'node:crypto';
import type { Task } from '../../tasks/contract.ts';
import { getTask } from '../../tasks/registry.ts';
import { ppoConfigFor } from '../../core/ppo-config.ts';
import type { PromptBudget, ProposeContext, RepairContext } from './proposer.ts';
import { rankWords, reflectionText } from '../shared/words/reflection.ts';
import { MAX_CODE_BYTES } from '../shared/cost/worst-case.ts';
import { discountSection, judgeText, observationSection } from './prompt-facts.ts';

/** The function every candidate defines; the sandbox looks it up by this name. */
export const REWARD_SIGNATURE = 'function computeReward(obs, action, nextObs, terminated)';

/** The signature the task's rewards are called with: the recorded state as two more arguments where it keeps one. */
export function rewardSignature(task: Pick<Task, 'recordSize'>): string {
  return task.recordSize > 0 ? 'function computeReward(obs, action, nextObs, terminated, state, nextState)' : REWARD_SIGNATURE;
}

/** What the sandbox accepts (mirrors its limits in functions/train-seed). */
export const REWARD_RULES = {
  /** Most distinct term names a reward may return. */
  maxTerms: 16,
  /** Longest term name. */
  maxTermNameLength: 48,
  /** Largest candidate source, in UTF-8 bytes. */
  maxCodeBytes: MAX_CODE_BYTES,
} as const;

export interface Prompt {
  system: string;
  user: string;
}

const SYSTEM = [
  'You are a reward engineer trying to write reward functions to solve reinforcement learning tasks as effectively as possible.',
  'Your goal is to write reward functions for the environment below that will help a PPO agent learn the task, as the task metric measures it.',
  'The reward functions are JavaScript and run in a locked-down sandbox, so they must follow the rules exactly.',
  'Each answer is your analysis first, then a list of candidate reward functions, each with a short name, its idea and its code.',
].join(' ');

export function actionText(task: Task): string {
  const a = task.action;
  if (a.kind === 'discrete') {
    const names = a.names.map((name, i) => `${i} (${name})`);
    return `action is a number: ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}.`;
  }
  const dims = a.names.map((name, i) => `${name} in [${a.low[i]}, ${a.high[i]}]`).join(', ');
  return `action is an array of ${a.names.length} number${a.names.length === 1 ? '' : 's'}: [${a.names.join(', ')}], ` +
    `${dims}, as the environment applied it (the policy's action clipped to these bounds).`;
}

function taskSection(task: Task, budget: PromptBudget): string {
  const ppo = ppoConfigFor(task, 0, budget.steps);
  const batch = ppo.numEnvs * ppo.numSteps;
  const updates = Math.max(1, Math.floor(budget.steps / batch));
  const discount = discountSection(task, ppo.gamma);
  return `# The task: ${task.id} (Gymnasium)
${task.description}

${task.environmentText === undefined
    ? `## The environment's source
The environment as the trainer runs it (TypeScript, vectorized; its own reward is left out). A copy's episode is cut off after ${task.maxEpisodeSteps} steps (Gymnasium's time limit, outside this code).`
    : `## The environment: a robot declared from its MJCF file
The environment is MuJoCo stepping the robot's XML; its manual below is read from the compiled model. A copy's episode is cut off after ${task.maxEpisodeSteps} steps.`}

\`\`\`typescript
${task.environmentSource.trimEnd()}
\`\`\`

${observationSection(task)}

## Actions
${actionText(task)}

## How your reward is judged
After training, trusted code runs the greedy policy for ${budget.evalEpisodes} evaluation episodes on start states never used in training. ${task.success.describe} The task metric is the share of evaluation episodes that ${task.success.clause}, averaged over ${budget.seeds} training seeds (a seed whose training failed counts 0); equal success is decided by ${rankWords(task)}. The policy is never graded on the reward you write: your reward only shapes what PPO learns, and it is never called during grading.${judgeText(task)}

## The learner
PPO (CleanRL-style) with separate 64-64 tanh actor and critic networks (${task.action.kind === 'discrete' ? 'a softmax over the actions' : 'a diagonal Gaussian policy with a learned, state-independent standard deviation'}), observations scaled to about [-1, 1], ${ppo.numEnvs} parallel environments x ${ppo.numSteps} steps per update, discount gamma ${ppo.gamma}, GAE lambda ${ppo.gaeLambda}, clip ${ppo.clipCoef}, entropy bonus ${ppo.entCoef}, ${ppo.updateEpochs} epochs of ${ppo.numMinibatches} minibatches, Adam with learning rate ${ppo.learningRate}${ppo.normReward ? ', rewards divided by the running standard deviation of the discounted return (and clipped to ±10)' : ''}. Training budget: ${budget.steps} environment steps per seed (${updates} updates; at least ${Math.floor(budget.steps / task.maxEpisodeSteps)} episodes, as an episode lasts at most ${task.maxEpisodeSteps} steps).${discount === '' ? '' : `\n\n${discount}`}`;
}

function rulesSection(task: Task): string {
  const r = REWARD_RULES;
  const names = task.observation.map((d) => d.name).join(', ');
  const action = task.action.kind === 'discrete'
    ? `action: the number of the action taken in obs (0 to ${task.action.names.length - 1})`
    : `action: [${task.action.names.join(', ')}], the action applied in obs`;
  return `# The reward function
Write JavaScript that defines exactly this function at the top level (constants and helper functions may sit beside it):

\`\`\`javascript
${rewardSignature(task)} {
  // obs, nextObs: [${names}] before and after the step
  // ${action}${task.recordSize > 0 ? `\n  // state, nextState: [${(task.recorded ?? []).map((d) => d.name.split(',')[0]).join(', ')}] before and after the step (the recorded state)` : ''}
  // terminated: true only on the step where the environment ends the episode (not at the time limit)
  const shaping = ...;
  const bonus = ...;
  return [shaping + bonus, { shaping, bonus }];
}
\`\`\`

Rules:
- It is called once per environment step with that step's transition. When an episode ends, nextObs${task.recordSize > 0 ? ' (and nextState)' : ''} is its final observation, not the start of the next episode.
- It is a pure function: the same arguments give the same result, and it keeps no state between calls.
- Use only Math and plain JavaScript (numbers, arrays, objects, functions). There are no other globals: no require, import, process, fetch, console, Date, timers or I/O.
- Keep it cheap: a few arithmetic operations per call. Every call has a deadline and each training run has a total time budget; no long loops, big arrays or recursion.
- Return [total, terms]: total is the reward (a finite number) and terms is an object of named reward terms, for example { shaping: 0.3, bonus: 0 }. Use at most ${r.maxTerms} term names of at most ${r.maxTermNameLength} characters; every value must be a finite number. Normally total is the sum of the terms. The terms are tracked through training and reported back to you, so name each meaningful component.
- Give each term's scale (and the temperature of any transform, such as Math.exp(-d / temperature)) its own named constant: the feedback reports each term by name, and a named constant is what the next round changes.
- A function that throws, runs past its deadline, uses too much memory, or returns a non-finite or malformed value ends its candidate, which then scores 0.
- At most ${r.maxCodeBytes / 1024} KiB of code per candidate.`;
}

function answerSection(task: Task, k: number, improving: boolean): string {
  const what = improving
    ? `Write ${k} new candidate reward functions that improve on the best reward function so far, using the feedback above. You may refine the best one (rescale, rewrite or drop terms as the statistics suggest) or try different ideas where it failed.`
    : `Write ${k} candidate reward functions. Make them different from each other, so the search explores several ideas at once.`;
  const analysis = improving
    ? 'analysis (write it first, before any code): your reading of the feedback. For each term of the best reward so far, what its statistics say (its size next to the others, whether it changes during training); what the episodes\' lengths and endings say the policy does; how far the best is from the line to beat; then what you change and why.'
    : 'analysis (write it first, before any code): what the task needs from a reward (what the policy must learn, what could go wrong, such as an episode that never ends or ends too early), and how your candidates differ.';
  return `# Your answer
${what}
Answer with a JSON object of two fields, in this order:
- ${analysis}
- candidates: K = ${k}: answer with exactly ${k} candidates, each with:
  - name: a short, unique kebab-case name (for example energy-shaping-bonus),
  - idea: one or two sentences on what the reward encourages and why it should help PPO ${task.success.clause},
  - code: the complete JavaScript source that defines computeReward.`;
}

/** The system message and the user message for one generation of the context's task. */
export function buildPrompt(context: ProposeContext): Prompt {
  const task = getTask(context.task);
  const sections = [taskSection(task, context.budget), rulesSection(task)];
  const improving = context.generation > 1;
  if (improving) {
    // A person's feedback sits beside the automatic reflection, first: it is what they see and
    // the statistics cannot, and the statistics still say what the numbers were.
    const person = context.feedback === null ? '' : `${feedbackSection(context.generation - 1, context.feedback)}\n\n`;
    sections.push(
      `# Feedback from the search so far (before generation ${context.generation})\n${person}` +
        reflectionText(task, context).trimEnd(),
    );
  }
  sections.push(answerSection(task, context.k, improving));
  return { system: SYSTEM, user: sections.join('\n\n') + '\n' };
}

function feedbackSection(generation: number, text: string): string {
  return `## What a person said after watching generation ${generation}
Where it disagrees with the statistics below, follow the person: they watched the policies.

${text.trim()}`;
}

/**
 * The request that sends back the candidates that failed their sandbox check (to be fixed so that
 * they run) and, with screen: "repair", those that ran but prefer a failure of the task's bank (to
 * be fixed so that they pay for succeeding).
 */
export function buildRepairPrompt(context: RepairContext): Prompt {
  const task = getTask(context.task);
  const block = (c: RepairContext['failed'][number]) => `## ${c.name}
Idea: ${c.idea || '(none given)'}
${c.failedOn === 'screen' ? 'What the screen found' : 'Why it failed'}: ${c.reason}

\`\`\`javascript
${c.code.trimEnd()}
\`\`\``;
  const crashed = context.failed.filter((c) => c.failedOn !== 'screen');
  const screened = context.failed.filter((c) => c.failedOn === 'screen');
  const n = context.failed.length;
  const why = [
    crashed.length === 0 ? '' : `${crashed.length === 1 ? 'One candidate' : `${crashed.length} candidates`} failed ${crashed.length === 1 ? 'its' : 'their'} check: before any training, it was called on a few thousand transitions of the environment in the same sandbox, with the same caps. Fix each so that it runs: change only what makes it fail.`,
    screened.length === 0 ? '' : `${screened.length === 1 ? 'One candidate' : `${screened.length} candidates`} ran, but failed the screen: on recorded episodes of this task (known successes, and failures such as doing nothing, acting at random or waiting out the time limit), its discounted return was higher for a failure than for the successes, so PPO would learn that failure. Fix what each pays for so that succeeding pays the most.`,
  ].filter((s) => s !== '').join(' ');
  const answer = `# Your answer
${why} Keep each candidate's name and idea and follow the rules above.
Answer with a JSON object: first an analysis (for each candidate, what made it fail and what you change), then exactly ${n} candidate${n === 1 ? '' : 's'}, one per failed candidate, each with the same name, its idea and the complete fixed code.`;
  const sections = [
    taskSection(task, context.budget), rulesSection(task),
    ...(crashed.length === 0 ? [] : [`# Candidates that failed their check (generation ${context.generation})\n\n${crashed.map(block).join('\n\n')}`]),
    ...(screened.length === 0 ? [] : [`# Candidates that failed the screen (generation ${context.generation})\n\n${screened.map(block).join('\n\n')}`]),
    answer,
  ];
  return { system: SYSTEM, user: sections.join('\n\n') + '\n' };
}

/** sha256 of the model and both messages: tells whether a cached answer answered the same question. */
export function promptHash(model: string, prompt: Prompt): string {
  return createHash('sha256').update(JSON.stringify([model, prompt.system, prompt.user])).digest('hex');
}
