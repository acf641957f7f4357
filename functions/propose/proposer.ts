/**
 * What every proposer (offline, anthropic, bedrock) is given and what it answers. The context is
 * plain data rebuilt from the table, so a retried Propose asks the same question.
 */
import type { PromptBudget } from './prompt.ts';
import type { Candidate, GenerationBest, ReflectionBest, ScoreboardEntry } from './reflection.ts';

export interface ProposeContext {
  /** The task's id (tasks/): what the prompt shows and the offline grammar builds on. */
  task: string;
  /** The search's training budget, as the prompt states it. */
  budget: PromptBudget;
  generation: number;
  /** How many candidates to write. */
  k: number;
  randomSeed: number;
  model: string;
  /** The best reward so far (elitist), or null in generation 1. */
  best: ReflectionBest | null;
  /** The last generation's scoreboard, every candidate with its score and outcome (the search's own hostile probes left out). */
  scoreboard: ScoreboardEntry[];
  bestByGeneration: GenerationBest[];
  /** What a person said after the last generation ("Wait for feedback"), or null. */
  feedback: string | null;
}

/** A repair request: the generation's candidates that failed their sandbox check, with why. */
export interface RepairContext extends ProposeContext {
  failed: Array<Candidate & { reason: string }>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface ProposerAnswer {
  candidates: Candidate[];
  /** Which proposer and model wrote them. */
  proposer: 'offline' | 'anthropic' | 'bedrock';
  model: string;
  /** The model's raw answer text (empty for the offline proposer). */
  raw: string;
  usage: TokenUsage | null;
  /** Estimated price in US dollars from the price table in config; null when unknown. */
  costUsd: number | null;
  /** Things the proposer fixed or noticed: renamed duplicates, cut or short lists, rejected code. */
  notes: string[];
  /** A hash of the prompt, to tell whether a cached answer answered the same question. */
  promptHash: string;
}

export interface Proposer {
  propose(context: ProposeContext): Promise<ProposerAnswer>;
  /** Fixed versions of the failed candidates, under the same names (one request). */
  repair(context: RepairContext): Promise<ProposerAnswer>;
  /**
   * The most the next request (propose or repair) could cost, in US dollars, before it is sent:
   * 0 for the offline proposer, null when the model has no price in the table.
   */
  worstCaseCostUsd(context: ProposeContext | RepairContext): number | null;
}

/** A proposer that cannot give a usable answer (refusal, schema failure after repair, missing key). */
export class ProposerError extends Error {
  override readonly name = 'ProposerError';
}
