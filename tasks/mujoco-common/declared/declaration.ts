/**
 * A MuJoCo task declared from its MJCF file, not programmed: what a task folder writes in
 * `defineMujocoTask({...})` (define.ts). The robot's physics is its XML's; the folder says what the
 * policy observes (values named as in the XML: state-values.ts), which actuators it drives and how,
 * the frame skip, and the overrides every MuJoCo task shares (overrides.ts: reset, termination,
 * time limit, recorded state), beside what every task says (success, progress, baselines, ...).
 *
 * Checked in two passes, each naming the field: this schema (shapes), then the XML (names: an
 * unknown joint, actuator or keyframe is refused with what the XML has: robot-model.ts).
 */
import { z } from 'zod';
import type { BankDeclaration, CardRenderer, Feature, Progress, RewardSource, SuccessTest, TaskBudget, TieBreak } from '../../contract.ts';
import type { PpoOverrides } from '../../../core/ppo-config.ts';
import { MujocoOverridesSchema, StateValueSchema, type MujocoOverrides } from '../overrides.ts';
import type { StateValue } from '../state-values.ts';

/** One entry of the observation: a value of the robot, named for the prompt. */
export interface ObservedValue {
  value: StateValue;
  /** For the prompt and the card, with its unit. @default the value in words and its unit: "joint hip position (rad)" */
  name?: string;
  /** Where it usually stays (the trainer scales it to [-1, 1]). @default from the XML: a limited joint's range, else the kind's (robot-model.ts) */
  typical?: readonly [number, number];
  /** Left out of what the policy's networks see (the reward, success test and progress still read it). @default false */
  hidden?: boolean;
  /** The observation is clipped to ±clip (Gymnasium's robots clip their velocities to ±10). @default not clipped */
  clip?: number;
}

/**
 * One dimension of the action, in [-1, 1]: the actuator's ctrl = offset + scale × action, clipped to
 * its ctrlrange. By default [-1, 1] spans the ctrlrange. For a position actuator, `offset:
 * 'keyframe'` is its target at the reset keyframe (its joint's position there), so that the action
 * moves the joint about the robot's standing pose.
 */
export interface ActuatorAction {
  actuator: string;
  /** @default the middle of the actuator's ctrlrange */
  offset?: 'keyframe' | number;
  /** ctrl per unit of action. @default half the ctrlrange's width */
  scale?: number;
  /** For the prompt. @default the actuator's name and its kind: "hip (position target, rad)" */
  name?: string;
}

/** What a declared task's folder writes; define.ts makes it a task. */
export interface MujocoTaskDeclaration extends MujocoOverrides {
  id: string;
  /** What the task is and what solved means; the prompt adds the robot's bodies, joints and actuators read from the XML. */
  description: string;
  /**
   * The MJCF file: `new URL('./model/scene.xml', import.meta.url)`, or an absolute path. Every file
   * in its folder (includes, meshes, textures, height fields) is loaded with it through MuJoCo's
   * virtual file system.
   */
  xml: URL | string;
  /**
   * What the XML says, stored (`new URL('./robot-facts.json', import.meta.url)`; written by `npx tsx
   * scripts/robot-facts.ts ID`), so loading the task compiles nothing: used only while it matches
   * the XML's folder and this declaration (robot-facts.ts). @default compile the XML as the task loads
   */
  facts?: URL | string;
  observation: readonly ObservedValue[];
  actions: readonly ActuatorAction[];
  /** `mj_step` calls per environment step (Gymnasium's frame_skip). */
  frameSkip: number;
  /** The time limit (steps). */
  maxEpisodeSteps: number;
  success: SuccessTest;
  progress: Progress;
  tieBreak?: TieBreak;
  /** A declared robot has no reward of its own: both baselines are reward files the folder writes. */
  baselines: { environment: RewardSource; human: RewardSource };
  features: readonly Feature[];
  budget: TaskBudget;
  /** @default the side view of the robot's own geometry, meshes as their bounding boxes (render.ts) */
  render?: CardRenderer;
  bank?: BankDeclaration;
  /** @default MuJoCo's (CleanRL's ppo_continuous_action settings: mujoco-common/ppo.ts) */
  ppo?: PpoOverrides;
  /** Gymnasium runs mj_rnePostConstraint after each step; only contact-force sensors need it. @default false */
  rnePostConstraint?: boolean;
}

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { error: 'must be a function' });
const text = z.string().trim().min(1);
const finite = z.number().refine(Number.isFinite, { error: 'must be a finite number' });

const ObservedValueSchema = z.object({
  value: StateValueSchema,
  name: text.optional(),
  typical: z.tuple([finite, finite]).refine(([lo, hi]) => lo < hi, { error: 'must be [low, high] with low < high' }).optional(),
  hidden: z.boolean().optional(),
  clip: finite.positive().optional(),
}).strict();

const ActuatorActionSchema = z.object({
  actuator: text,
  offset: z.union([z.literal('keyframe'), finite]).optional(),
  scale: finite.refine((s) => s !== 0, { error: 'must not be 0' }).optional(),
  name: text.optional(),
}).strict();

/**
 * The declaration's own fields; what every task says (success, progress, baselines, features,
 * budget, render, bank, ppo) is checked by the task schema once it is a task (spec-schema.ts).
 */
export const DeclarationSchema = MujocoOverridesSchema.extend({
  id: z.string(),
  description: text,
  xml: z.union([z.instanceof(URL), text], { error: 'must be the MJCF file: new URL(\'./model/scene.xml\', import.meta.url), or an absolute path' }),
  facts: z.union([z.instanceof(URL), text], { error: 'must be where the stored facts are: new URL(\'./robot-facts.json\', import.meta.url), or an absolute path' }).optional(),
  observation: z.array(ObservedValueSchema).min(1).max(256),
  actions: z.array(ActuatorActionSchema).min(1).max(64)
    .refine((as) => new Set(as.map((a) => a.actuator)).size === as.length, { error: 'names an actuator twice' }),
  frameSkip: z.int().min(1).max(1000),
  maxEpisodeSteps: z.int().min(1).max(100_000),
  rnePostConstraint: z.boolean().optional(),
  success: z.unknown(),
  progress: z.unknown(),
  tieBreak: z.unknown().optional(),
  baselines: z.unknown(),
  features: z.unknown(),
  budget: z.unknown(),
  render: z.object({ animation: fn, plots: fn, story: fn }).optional(),
  bank: z.unknown().optional(),
  ppo: z.unknown().optional(),
}).strict();
