/** What TrainSeed returns to the state machine for a seed-run: its result.json, made small. */
import type { SeedResult, SeedSummary } from '../shared/search/types.ts';

/**
 * The reason in a summary is clipped: up to 320 summaries of a generation travel together through
 * the state machine, whose every state is capped at 256 KiB. The whole reason stays in result.json.
 */
export const SUMMARY_REASON_CHARS = 200;

export function summarize(result: SeedResult): SeedSummary {
  const { candidateId, seed, outcome, success, meanSuccessSteps, meanReturn, progress, stepsTrained, trainSuccessArea } = result;
  const wallSeconds = Math.round(result.wallSeconds * 1000) / 1000;
  return {
    candidateId, seed, outcome, reason: clip(result.reason, SUMMARY_REASON_CHARS), success, meanSuccessSteps, meanReturn, progress, stepsTrained, trainSuccessArea, wallSeconds,
  };
}

/** At most `chars` characters, an ellipsis marking a cut. */
export function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
