/**
 * What the prompt knows of a task beyond its source, in the same words for every task: where the
 * observations usually are (each dimension's typical range next to its bounds), the exact return
 * that judges the policy where success is a return (the task folder's own formula), and, where
 * episodes end early, what a steady per-step term is worth under the task's discount.
 */
import type { Task, Termination } from '../../tasks/contract.ts';
import { formatValue } from '../shared/words/reflection-format.ts';

const range = (low: number, high: number): string =>
  Number.isFinite(low) && Number.isFinite(high) ? `[${formatValue(low)}, ${formatValue(high)}]` : `unbounded (${low}, ${high})`;

/** The observation table: bounds as the space declares them, and the range observations usually stay in. */
export function observationSection(task: Task): string {
  const rows = task.observation.map((d, i) => {
    const [lo, hi] = d.typical ?? [d.low, d.high];
    return `| ${i} | ${d.name} | ${range(d.low, d.high)} | ${range(lo, hi)} |`;
  });
  return [
    '## Observation',
    `obs is an array of ${task.obsSize} numbers (32-bit floats), exactly as the environment's observation above:`,
    '| index | meaning | bounds | typical range |',
    '|---|---|---|---|',
    ...rows,
    'The typical range is where observations usually stay (the trainer scales it to [-1, 1] for the networks); the bounds are what the space allows.',
    ...hiddenLine(task),
    ...recordedSection(task),
  ].join('\n');
}

/** The recorded state the reward may read as its 5th and 6th arguments, or nothing where the task records none. */
function recordedSection(task: Task): string[] {
  if (task.recordSize === 0) return [];
  return [
    '',
    '## Recorded state',
    `state and nextState are arrays of ${task.recordSize} numbers (64-bit floats) the environment records beside the observation, before and after the step; the policy never sees them, the success test and progress read them, and your reward may:`,
    '| index | meaning |',
    '|---|---|',
    ...(task.recorded ?? []).map((d, i) => `| ${i} | ${d.name} |`),
  ];
}

/** One line naming the entries the policy's networks do not see (as index ranges), or none. */
function hiddenLine(task: Task): string[] {
  const hidden = task.observation.flatMap((d, i) => (d.hidden ? [i] : []));
  if (hidden.length === 0) return [];
  const runs: string[] = [];
  for (let j = 0; j < hidden.length; j++) {
    let end = j;
    while (end + 1 < hidden.length && hidden[end + 1] === hidden[end] + 1) end++;
    runs.push(end === j ? `${hidden[j]}` : `${hidden[j]}-${hidden[end]}`);
    j = end;
  }
  return [`The policy does not see entries ${runs.join(', ')}: they are in obs and nextObs for your reward, and training does not show them to the networks.`];
}

/** The return the success test reads, as the task folder writes it; '' where success is not a return. */
export function judgeText(task: Task): string {
  const formula = task.success.returnFormula;
  if (formula === undefined) return '';
  return `

The return that judges the policy (the grader's, computed by trusted code; it is the judge, not a reward to copy: the search already trains one policy on it as a baseline, and your reward should let PPO score higher on it):
\`\`\`text
${formula.trimEnd()}
\`\`\``;
}

/** What each kind of early ending does to a steady per-step term. */
const ENDINGS: Record<Exclude<Termination, 'never'>, string> = {
  success: 'Here an episode ends early only when the task is done: a steady +c per step pays the policy never to finish, and a steady -c pays it to finish sooner.',
  failure: 'Here an episode ends early only on a failure: a steady -c per step pays the policy to fail early, and a steady +c pays it to last.',
  mixed: 'Here an episode ends early on success and on failure: a steady +c per step pays the policy to avoid both and run to the time limit, and a steady -c pays it to end the episode the quickest way, a failure included.',
};

/** One rule, with the task's own gamma and time limit; '' for a task whose episodes always run to the limit. */
export function discountSection(task: Task, gamma: number): string {
  if (task.termination === 'never') return '';
  const steps = task.maxEpisodeSteps;
  const worth = (1 - gamma ** steps) / (1 - gamma);
  return `## Per-step terms and the discount
A term that pays about the same c on every step, whatever the policy does, pays for the episode's length: with gamma ${gamma}, from an episode's start it is worth up to c * (1 - gamma^${steps}) / (1 - gamma) = ${formatValue(worth)}c over the ${steps}-step limit, and nothing once the episode has ended. ${ENDINGS[task.termination]} Weigh such a term against what the ending is worth in your reward, or make it depend on the state so that it pays for progress rather than for time.`;
}
