/**
 * A trial, not the product's loop: would the number the check measures (`firstSteps`, what a reward
 * pays as the untrained policy acts) make a model fix a reward that pays ending the episode? For each
 * answer (a files proposer's `answer-N.json`), its candidates that pay below zero on a step that goes
 * on are written into one repair request, in the product's repair prompt (buildRepairPrompt, as a
 * screen's repair) with the screen's words replaced by the check's number and what it means. Answer
 * each `request.md` with a model that sees only it, then read the answers with first-steps-pay.ts.
 * (docs/behaviours.md: the ant's turn.)
 *
 *   npx tsx bench/first-steps-repair.ts --task ID --steps N --seeds S --out DIR ANSWER.json...
 *
 * Writes DIR/repair-<i>/request.md for the i-th answer with such candidates.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRepairPrompt } from '../functions/propose/prompt.ts';
import { requestText } from '../functions/propose/text-proposer.ts';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import { prepareTask } from '../tasks/registry.ts';
import { rewardsIn } from './answers.ts';
import { argError, benchArgs } from './args.ts';

const { values, positionals } = benchArgs(import.meta.url, {
  options: { task: { type: 'string' }, steps: { type: 'string' }, seeds: { type: 'string' }, out: { type: 'string' } },
  allowPositionals: true,
});
if (values.task === undefined || values.out === undefined || positionals.length === 0) argError(import.meta.url, 'needs --task ID --out DIR and ANSWER.json files');
const task = await prepareTask(values.task);
const budget = { steps: Number(values.steps ?? task.budget.steps), seeds: Number(values.seeds ?? 3), evalEpisodes: task.budget.evalEpisodes };

const SCREEN_WHY = /(One candidate|\d+ candidates) ran, but failed the screen: .*? Fix what each pays for so that succeeding pays the most\./;

for (const [i, file] of positionals.entries()) {
  const candidates = rewardsIn(import.meta.url, file);
  const failed = [];
  for (const c of candidates) {
    const pay = (await checkReward(task, c.code, { screen: false })).firstSteps;
    if (pay?.goingOn == null || pay.goingOn >= 0) continue;
    const reason = `as the untrained policy acts (${pay.steps.toLocaleString('en-US')} steps drawn so), it pays ${pay.goingOn.toFixed(3)} a step that goes on and ` +
      `${pay.ending === null ? 'nothing' : pay.ending.toFixed(3)} on a step that ends the episode (${pay.endings} of ${pay.steps})`;
    failed.push({ ...c, failedOn: 'screen' as const, reason });
  }
  if (failed.length === 0) continue;
  const k = failed.length;
  const prompt = buildRepairPrompt({ task: task.id, budget, generation: 1, k, randomSeed: 0, model: 'files', best: null, scoreboard: [], bestByGeneration: [], feedback: null, failed });
  const why = `${k === 1 ? 'One candidate' : `${k} candidates`} ran, but on steps drawn as the untrained policy acts ${k === 1 ? 'it pays' : 'they pay'} below zero ` +
    'on a step that goes on, while failing ends the episode: ending it pays those first policies, and PPO learns that first. ' +
    'Fix what each pays so that going on pays more than ending, for the flailing first policies too.';
  // The screen's words are the product's: if they have changed, say so rather than send them unreplaced.
  if (!SCREEN_WHY.test(prompt.user)) throw new Error('the repair prompt no longer says what this trial replaces: update SCREEN_WHY');
  const user = prompt.user
    .replace('# Candidates that failed the screen (generation 1)', '# Candidates that pay the first policies to end the episode (generation 1)')
    .replaceAll('What the screen found: ', 'What the check measured: ')
    .replace(SCREEN_WHY, why);
  const dir = join(values.out, `repair-${i + 1}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'request.md'), requestText({ system: prompt.system, user }, k));
  process.stdout.write(`${file}: ${k} of ${candidates.length} sent back: ${join(dir, 'request.md')}\n`);
}
