/**
 * A seed-run's checkpoint in the bucket (seeds/<seed>/checkpoint.bin): what one chunk leaves for the
 * next, stamped with the trainer that wrote it. A checkpoint is resumed only by the same trainer:
 * the same format, the same trainer revision and kernel, the same settings for this seed-run and
 * the same backend. Anything else (a redeploy inside the redrive window, a corrupt object, bytes
 * that are no checkpoint) is not resumed: the seed-run starts over from scratch, with the reason,
 * since going on from a state another trainer wrote would train something no run of this one would.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ppoConfigFor } from '../../core/ppo-config.ts';
import type { Task } from '../../tasks/contract.ts';
import { MLP_KERNEL_WASM } from './mlp-kernel-wasm.ts';
import { networkFor } from './network.ts';
import type { SeedCheckpoint } from './seed-run.ts';
import { decodeTyped, encodeTyped, MalformedContainer, OtherContainerFormat } from './typed-container.ts';

/** The layout of SeedCheckpoint. Bump it with any change to what a checkpoint holds. */
export const CHECKPOINT_FORMAT = 4;

/**
 * The trainer's own revision. Bump it with any change to the trainer's arithmetic or state that
 * the rest of the fingerprint cannot see (the settings, the kernel's bytes and the backend are in it).
 */
export const TRAINER_REVISION = 1;

const KERNEL_SHA256 = createHash('sha256').update(MLP_KERNEL_WASM).digest('hex');

export interface CheckpointVersion {
  format: number;
  /** `r<revision>-<fingerprint>` of the trainer that wrote it. */
  trainer: string;
}

/** The version a checkpoint of this seed-run, written by this trainer, carries. */
export function checkpointVersion(task: Task, seed: number, steps: number, backend: string): CheckpointVersion {
  const network = networkFor(task);
  // JSON writes a hidden entry's infinite scale as null, so hiding an entry changes the fingerprint.
  const identity = JSON.stringify({
    task: task.id, backend, config: ppoConfigFor(task, seed, steps),
    network: { ...network, offset: [...network.offset], scale: [...network.scale], clip: String(network.clip) },
    kernel: KERNEL_SHA256,
  });
  const fingerprint = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return { format: CHECKPOINT_FORMAT, trainer: `r${TRAINER_REVISION}-${fingerprint}` };
}

export function encodeCheckpoint(checkpoint: SeedCheckpoint): Uint8Array {
  return encodeTyped(checkpoint);
}

/** The checkpoint to resume from, or why it is not resumed. */
export type ReadCheckpoint = { checkpoint: SeedCheckpoint } | { discarded: string };

export function readCheckpoint(bytes: Uint8Array, expected: CheckpointVersion): ReadCheckpoint {
  let decoded: unknown;
  try {
    decoded = decodeTyped<unknown>(bytes);
  } catch (error) {
    if (error instanceof OtherContainerFormat) return { discarded: `the checkpoint was written in another format (${error.message})` };
    if (error instanceof MalformedContainer) return { discarded: `the checkpoint is corrupt: ${error.message}` };
    throw error;
  }
  const version = VersionSchema.safeParse(decoded);
  if (version.success) {
    const { format, trainer } = version.data.version;
    if (format !== expected.format) return { discarded: `the checkpoint was written in format ${format}, this trainer reads ${expected.format}` };
    if (trainer !== expected.trainer) return { discarded: `the checkpoint was written by another trainer (${trainer}, this one is ${expected.trainer})` };
  }
  const parsed = CheckpointSchema.safeParse(decoded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { discarded: `the checkpoint is not one this trainer reads: ${issue.path.join('.') || 'the whole'}: ${issue.message}` };
  }
  // The decoded value itself, not zod's copy: nothing it holds is dropped or rebuilt.
  return { checkpoint: decoded as SeedCheckpoint };
}

const typedArray = <T extends ArrayBufferView>(type: new (n: number) => T) => z.custom<T>((v) => v instanceof type, { message: `expected a ${type.name}` });
const F32 = typedArray(Float32Array);
const F64 = typedArray(Float64Array);
const I32 = typedArray(Int32Array);
const U32 = typedArray(Uint32Array);
const count = z.number().int().min(0);

const VersionSchema = z.object({ version: z.object({ format: z.number(), trainer: z.string() }) });

const UpdateSchema = z.looseObject({
  step: count, meanReward: z.number(), trainSuccess: z.number().nullable(), episodeLength: z.number().nullable(),
  terms: z.record(z.string(), z.number()), episodesEnded: count, episodesSucceeded: count,
});

const CheckpointSchema = z.object({
  version: VersionSchema.shape.version,
  trainer: z.object({
    update: count, theta: F32, adam: z.object({ step: count, m: F64, v: F64 }), rng: U32,
    env: z.record(z.string(), z.union([F64, F32, I32, U32])).nullable(),
    tracker: z.object({ observations: F32, counts: I32, recorded: F64.optional(), recordCounts: I32.optional(), returns: F64, lengths: I32 }).nullable(),
    normalizer: F64.nullable(),
    obsNormalizer: F64.nullable(),
    updates: z.array(UpdateSchema),
  }),
  steps: count, wallSeconds: z.number().min(0), sandboxSeconds: z.number().min(0), sandboxOperations: count, chunks: count,
});
