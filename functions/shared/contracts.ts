/**
 * What each state of the search passes to the next (JSONPath, DESIGN §2). The state machine's
 * data is the execution input plus these small results at fixed paths:
 *
 *   $.search      InitResult        "Start the search"     (reflect function, kind 'init')
 *   $.proposal    ProposeResult     "Propose rewards"      (propose function)
 *                                   "Baselines trained?"   Choice: is $.baselines present?
 *   $.baselines   SeedSummary[]     "Train baselines"      (Map over $.search.baselineTasks; once)
 *   $.seedResults SeedSummary[]     "Train seeds"          (Map over $.proposal.tasks)
 *   $.reflection  ReflectResult     "Reflect on results"   (reflect function, kind 'reflect')
 *                                   "More generations?"    Choice on $.reflection.more
 *   $.freshResults SeedSummary[]    "Train on fresh seeds" (Map over $.reflection.freshTasks)
 *   $.published   PublishResult     "Publish the winner"   (publish function)
 *                                   "Announce the winner"  EventBridge PutEvents
 *
 * A seed-run that fails outside the sandbox (Lambda out of memory, timeout) is caught inside the
 * Map iteration and turned into a SeedSummary with outcome 'memory' or 'timeout' by a Pass state,
 * so one bad candidate never fails the search.
 */
import type { SeedSummary, SeedTask } from './types.ts';

export interface InitEvent {
  kind: 'init';
  /** The raw execution input, validated here with zod. */
  input: unknown;
  /** $$.Execution.Name: the default searchId, so a redrive shares the cache. */
  executionName: string;
}

export interface InitResult {
  searchId: string;
  /** The validated search configuration with every default filled in. */
  config: SearchSettings;
  /** The two baselines on the search's seeds, trained as generation 0. */
  baselineTasks: SeedTask[];
  /** The generation the next Propose writes. */
  nextGeneration: number;
}

/** The validated, defaulted execution input (the zod schema lives in search-input.ts). */
export interface SearchSettings {
  /** The task's id, from tasks/ ("MountainCar-v0"). */
  task: string;
  generations: number;
  candidates: number;
  seeds: number;
  steps: number;
  evalEpisodes: number;
  includeHostile: boolean;
  proposer: 'offline' | 'anthropic' | 'bedrock';
  model: string;
  /** The model's effort (output_config.effort); unset leaves the model's default. */
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  maxConcurrency: number;
  /** Seed of the offline proposer and of everything random the search decides. */
  randomSeed: number;
  humanInit: Array<{ name: string; idea: string; code: string }>;
}

export interface ProposeEvent {
  searchId: string;
  generation: number;
}

export interface ProposeResult {
  generation: number;
  /** Candidates x seeds, in that order. */
  tasks: SeedTask[];
}

export interface ReflectEvent {
  kind: 'reflect';
  searchId: string;
  generation: number;
  seedResults: SeedSummary[];
  baselines: SeedSummary[];
}

export interface ReflectResult {
  generation: number;
  nextGeneration: number;
  more: boolean;
  best: { generation: number; candidateId: string; success: number };
  /** Winner and baselines on seeds the search never used; empty while more is true. */
  freshTasks: SeedTask[];
}

export interface PublishEvent {
  searchId: string;
  freshResults: SeedSummary[];
}

export interface PublishResult {
  searchId: string;
  winner: { generation: number; candidateId: string; name: string; searchSuccess: number; freshSuccess: number };
  baselines: Array<{ candidateId: string; searchSuccess: number; freshSuccess: number }>;
  cardKey: string;
}
