/** zod schemas of what travels between states, shared by the handlers that receive it. */
import { z } from 'zod';

/** A seed-run's summary, as TrainSeed returns it and as the Map's Catch states build it. */
export const SeedSummarySchema = z.object({
  candidateId: z.string(),
  seed: z.number().int(),
  outcome: z.enum(['trained', 'stopped', 'timeout', 'memory', 'error']),
  reason: z.string(),
  success: z.number(),
  meanSuccessSteps: z.number().nullable(),
  meanReturn: z.number().nullable(),
  /** The task's progress on the greedy episodes (null: not trained). */
  progress: z.number().nullable(),
  stepsTrained: z.number().int().min(0),
  trainSuccessArea: z.number().nullable(),
  wallSeconds: z.number().min(0).optional(),
});

/** A sandbox check's summary, as TrainSeed returns it and as the check Maps' Catch states build it. */
export const CheckSummarySchema = z.object({
  candidateId: z.string(),
  verdict: z.enum(['ok', 'timeout', 'memory', 'error']),
  reason: z.string(),
});
