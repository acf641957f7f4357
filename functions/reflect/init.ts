/**
 * "Start the search": validate the execution input, record the search (once: a redrive or a
 * resume finds it recorded and keeps its configuration), and stage the two baselines.
 */
import { availableParallelism } from 'node:os';
import { estimateSearch } from '../shared/cost/estimate.ts';
import type { InitEvent, InitResult, SearchSettings } from '../shared/search/contracts.ts';
import { rewardKey } from '../shared/store/keys.ts';
import { BASELINE_GENERATION } from '../shared/store/records.ts';
import { InvalidSearchInput, parseSearchInput } from '../shared/input/search-input.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import type { SeedTask } from '../shared/search/types.ts';
import { getTask } from '../../tasks/registry.ts';
import { baselinesOf } from '../shared/search/baselines.ts';
import { chunkStepsOf } from './race.ts';

/**
 * `costCeilingUsd`: the stack's spending ceiling, applied to every search (null: none, as locally).
 * `local`: the local runtime, where a command or a person may answer (command:, files:).
 */
export async function initSearch(
  store: SearchStore, event: InitEvent, defaultProposer: SearchSettings['proposer'], costCeilingUsd: number | null = null, local = false,
): Promise<InitResult> {
  const { searchId: requested, ...settings } = parseSearchInput(event.input, { proposer: defaultProposer, costCeilingUsd, local });
  const searchId = requested ?? event.executionName;
  const now = new Date().toISOString();
  const { created, meta } = await store.createMeta(searchId, {
    config: settings, status: 'running', startedAt: now, updatedAt: now, best: null, executionName: event.executionName,
    estimate: estimateSearch(settings, getTask(settings.task), { cores: local ? availableParallelism() : null, region: process.env.AWS_REGION ?? 'us-east-1', firstPromptChars: null }),
  });
  // A redrive (or a local resume) is the same execution and continues its search; any other
  // execution would attach to it, and its pauses would overwrite the first one's task token.
  // A search recorded before executions were recorded was started by the one its id names.
  const owner = meta.executionName ?? searchId;
  if (!created && owner !== event.executionName) {
    throw new InvalidSearchInput([`"searchId" ${searchId} names a search that execution ${owner} started: only a redrive of that execution continues it; start a new search with a new id`]);
  }
  const config = meta.config;
  const baselines = baselinesOf(getTask(config.task));

  for (const baseline of baselines) {
    await store.blobs.put(rewardKey(searchId, BASELINE_GENERATION, baseline.name), baseline.code, 'text/javascript');
  }
  return {
    searchId,
    // The human rewards' code stays in the table: the state machine's data is capped at 256 KiB.
    config: { ...config, humanInit: [] },
    baselineTasks: seedTasks(searchId, BASELINE_GENERATION, baselines.map((b) => b.name), config, 0),
    nextGeneration: 1,
    feedbackTimeoutSeconds: feedbackTimeoutSeconds(config),
  };
}

/** How long "Wait for feedback" waits: whole seconds, at least one, as Step Functions wants them. */
export function feedbackTimeoutSeconds(config: Pick<SearchSettings, 'feedbackTimeoutMinutes'>): number {
  return Math.max(1, Math.round(config.feedbackTimeoutMinutes * 60));
}

/** Candidates x seeds, in that order, starting at firstSeed: each to the full budget. */
export function seedTasks(searchId: string, generation: number, candidateIds: string[], config: SearchSettings, firstSeed: number): SeedTask[] {
  const budget = { steps: config.steps, evalEpisodes: config.evalEpisodes };
  const chunkSteps = chunkStepsOf(config);
  return candidateIds.flatMap((candidateId) => Array.from({ length: config.seeds }, (_, s) =>
    ({ searchId, task: config.task, generation, candidateId, seed: firstSeed + s, budget, targetSteps: budget.steps, chunkSteps })));
}
