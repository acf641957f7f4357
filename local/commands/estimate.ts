/**
 * `--estimate` (eureka search, eureka start): what the search would train and cost, printed
 * without training anything or calling AWS. The input is validated as "Start the search" would.
 */
import { availableParallelism } from 'node:os';
import type { SearchSettings } from '../../functions/shared/search/contracts.ts';
import { buildPrompt, type Prompt } from '../../functions/propose/prompt.ts';
import { estimateSearch } from '../../functions/shared/cost/estimate.ts';
import { estimateLines } from '../../functions/shared/cost/estimate-text.ts';
import { InvalidSearchInput, parseSearchInput } from '../../functions/shared/input/search-input.ts';
import { getTask } from '../../tasks/registry.ts';
import { UsageError } from '../flags.ts';

export interface EstimateWhere {
  /** How parseSearchInput defaults the input: the local runtime's or the stack's. */
  proposer: SearchSettings['proposer'];
  costCeilingUsd: number | null;
  local: boolean;
  /** The flag the input came from, named in a refusal. */
  flag: string;
}

export function printEstimate(input: unknown, where: EstimateWhere, json: boolean): void {
  let config: SearchSettings;
  try {
    config = parseSearchInput(input, { proposer: where.proposer, costCeilingUsd: where.costCeilingUsd, local: where.local }) as SearchSettings;
  } catch (err) {
    if (err instanceof InvalidSearchInput) throw new UsageError(`${where.flag}: ${err.message}`);
    throw err;
  }
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const estimate = estimateSearch(config, getTask(config.task), { cores: where.local ? availableParallelism() : null, region, firstPromptChars: firstPromptChars(config) });
  if (json) {
    process.stdout.write(`${JSON.stringify({ task: config.task, proposer: config.proposer, model: config.model, estimate })}\n`);
    return;
  }
  const shape = `G=${config.generations}, K=${config.candidates}, S=${config.seeds}, ${config.freshSeeds ?? config.seeds} fresh seeds, ${config.steps.toLocaleString('en-US')} steps a seed-run`;
  process.stdout.write([`estimate of a search on ${config.task} (${shape}); nothing was trained`, ...estimateLines(estimate, config.proposer, config.model).map((l) => `  ${l}`)].join('\n') + '\n');
}

/** Generation 1's prompt, built as Propose builds it: the task, its rules and the answer's section. */
export function firstPrompt(config: SearchSettings): Prompt {
  return buildPrompt({
    task: config.task, budget: { steps: config.steps, seeds: config.seeds, evalEpisodes: config.evalEpisodes }, generation: 1,
    k: config.candidates, randomSeed: config.randomSeed, model: config.model, best: null, scoreboard: [], bestByGeneration: [], feedback: null,
  });
}

export function firstPromptChars(config: SearchSettings): number {
  const prompt = firstPrompt(config);
  return prompt.system.length + prompt.user.length;
}
