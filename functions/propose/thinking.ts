/**
 * Extended thinking (input `thinkingBudget`), where the model has it. Which form a model takes is
 * Anthropic's (platform.claude.com/docs/en/build-with-claude/extended-thinking, and Bedrock's
 * "Adaptive thinking" page, which lists the same models): Claude 3.7 Sonnet to the 4.5 models take
 * only `{type: "enabled", budget_tokens}`; the 4.6 models take both (the budget form deprecated,
 * the SDK warns); Claude 4.7 and later reject the budget form with a 400 and take only
 * `{type: "adaptive"}`, where the model decides how much to think; the Haiku 3 models have no
 * thinking at all. Thinking tokens are output tokens: billed at the output price and counted in
 * `max_tokens`, so the budget is added to the answer's own cap (the answer keeps all its room), and
 * the worst case a request reserves (model-answer.ts) counts both.
 */
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { normalizeModelId } from '../shared/cost/pricing.ts';

/** Models (as the price table names them) that take only the budget form. */
const BUDGET_ONLY = new Set([
  'claude-3-7-sonnet', 'claude-sonnet-4', 'claude-sonnet-4-5', 'claude-opus-4', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-haiku-4-5',
]);
/** Models with no extended thinking. */
const NO_THINKING = new Set(['claude-3-5-haiku', 'claude-3-haiku', 'claude-3-5-sonnet', 'claude-3-opus']);

/** What a request sends for thinking, and the output tokens it adds to the answer's cap. */
export interface ThinkingPlan {
  config: ThinkingConfigParam;
  /** Output tokens added to `max_tokens` for the thinking. */
  budgetTokens: number;
}

/**
 * The thinking a request of `model` sends for `budget` tokens: the budget form on the models that
 * take only it; the adaptive form from the 4.6 models on (Anthropic's advice where both are taken;
 * an unknown id is taken to be one of these, the models released since), with the budget as the
 * room added to `max_tokens`; none where the model has no thinking (`note` says so).
 */
export function thinkingFor(model: string, budget: number | undefined): { plan: ThinkingPlan | null; note: string | null } {
  if (budget === undefined) return { plan: null, note: null };
  const id = normalizeModelId(model);
  if (NO_THINKING.has(id)) {
    return { plan: null, note: `thinkingBudget ${budget} was not used: ${model} has no extended thinking.` };
  }
  if (BUDGET_ONLY.has(id)) {
    return { plan: { config: { type: 'enabled', budget_tokens: budget }, budgetTokens: budget }, note: null };
  }
  return { plan: { config: { type: 'adaptive' }, budgetTokens: budget }, note: null };
}

/** The conversation's options for a thinking budget (model-answer.ts): the plan, or the note that it could not be used. */
export function thinkingOptions(model: string, budget: number | undefined): { thinking?: ThinkingPlan; settingsNote?: string } {
  const { plan, note } = thinkingFor(model, budget);
  return { ...(plan === null ? {} : { thinking: plan }), ...(note === null ? {} : { settingsNote: note }) };
}
