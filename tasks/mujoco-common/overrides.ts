/**
 * What a task changes of a MuJoCo robot, declared rather than programmed: one vocabulary for a
 * behaviour that reuses one of Gymnasium's robots (its XML, physics and observation untouched) and
 * for a robot declared from its own MJCF file. Values are named as in the XML (state-values.ts).
 *
 * - `termination`: 'none' (only the time limit ends an episode), or the healthy ranges that end it
 *   when a value leaves them, in place of the robot's own (Gymnasium's robots: `is_healthy`, which
 *   their own reward's survive term reads too, as Gymnasium's `healthy_*_range` arguments do).
 * - `maxEpisodeSteps`: the time limit.
 * - `reset`: the keyframe the episode starts from (the model's qpos0 when absent) and the uniform
 *   noise on every qpos and qvel entry.
 * - `recorded`: more recorded state, after the robot's own: what a success test and progress read.
 */
import { z } from 'zod';
import { describeValue, type StateValue } from './state-values.ts';

/** A value's open range (Gymnasium's healthy ranges are open: min < value < max); a missing side is unbounded. */
export interface HealthyRange {
  value: StateValue;
  min?: number;
  max?: number;
}

/** A healthy range in words: "body torso z in (0.2, 1)", "joint rooty position above -1". */
export function describeRange(h: HealthyRange): string {
  return `${describeValue(h.value)} ${h.min === undefined ? `below ${h.max}` : h.max === undefined ? `above ${h.min}` : `in (${h.min}, ${h.max})`}`;
}

export interface RecordedEntry {
  /** For the prompt and the docs, with its unit: "back foot height (m)". */
  name: string;
  value: StateValue;
}

export interface MujocoOverrides {
  termination?: 'none' | { healthy: readonly HealthyRange[] };
  maxEpisodeSteps?: number;
  reset?: { keyframe?: string; noise?: number };
  recorded?: readonly RecordedEntry[];
}

const name = z.string().trim().min(1);
const finite = z.number().refine(Number.isFinite, { error: 'must be a finite number' });
const index = z.int().min(0).optional();

export const StateValueSchema = z.union([
  z.object({ joint: name, of: z.enum(['position', 'velocity']).optional(), index }).strict(),
  z.object({ body: name, of: z.enum(['x', 'y', 'z', 'heading', 'roll', 'pitch', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz']) }).strict(),
  z.object({ site: name, of: z.enum(['x', 'y', 'z']) }).strict(),
  z.object({ sensor: name, index }).strict(),
], { error: 'must name a joint ({ joint, of?, index? }), a body ({ body, of: x|y|z|heading|roll|pitch|vx|vy|vz|wx|wy|wz }), a site ({ site, of }) or a sensor ({ sensor, index? })' });

const HealthyRangeSchema = z.object({ value: StateValueSchema, min: finite.optional(), max: finite.optional() }).strict()
  .refine((r) => r.min !== undefined || r.max !== undefined, { error: 'needs a min, a max or both' })
  .refine((r) => r.min === undefined || r.max === undefined || r.min < r.max, { error: 'min must be below max' });

export const MujocoOverridesSchema = z.object({
  termination: z.union([z.literal('none'), z.object({ healthy: z.array(HealthyRangeSchema).min(1) }).strict()]).optional(),
  maxEpisodeSteps: z.int().min(1).max(100_000).optional(),
  reset: z.object({ keyframe: name.optional(), noise: finite.min(0).optional() }).strict().optional(),
  recorded: z.array(z.object({ name, value: StateValueSchema }).strict()).max(32).optional(),
}).strict();
