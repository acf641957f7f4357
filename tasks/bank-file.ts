/**
 * A task's stored bank: `bank.json.gz` in the task's folder, written by `eureka bank` and read by
 * the screen. Gzipped JSON, as the recordings of test/fixtures/recordings are: observations (and
 * box actions, which the bank's policies send as float32) are written with as few digits as give
 * the same float32 back, so the file reads as the environment's own numbers and stays small.
 *
 * Without a stored file the bank is made on the fly from the task's policies (bank.ts), once per
 * process: the failures and declared successes, without the person's shaping's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { policyEpisodes, policyInfos, successWords, type Bank, type BankEpisode } from './bank.ts';
import type { Task } from './contract.ts';

export const BANK_FILE = 'bank.json.gz';
export const BANK_FORMAT = 'eureka-serverless/bank@2';
/** The format before episodes kept the recorded state: still read for a task that records none. */
const BANK_FORMAT_1 = 'eureka-serverless/bank@1';

export class InvalidBank extends Error {
  override readonly name = 'InvalidBank';
}

const Kind = z.enum(['success', 'failure']);

const BankFileSchema = z.object({
  format: z.enum([BANK_FORMAT, BANK_FORMAT_1]),
  task: z.string(),
  /** How it was made: the command, and what the trained successes were trained with. */
  made: z.record(z.string(), z.unknown()),
  successWords: z.string().min(1),
  policies: z.array(z.object({ name: z.string(), kind: Kind, words: z.string().min(1) })).min(1),
  episodes: z.array(z.object({
    policy: z.string(),
    kind: Kind,
    seed: z.int(),
    terminated: z.boolean(),
    truncated: z.boolean(),
    return: z.number(),
    observations: z.array(z.number()),
    recorded: z.array(z.number()).default([]),
    actions: z.array(z.number()),
  })).min(1),
});

export type BankMade = Record<string, unknown>;

export function bankFile(task: Pick<Task, 'directory'>): string {
  return join(task.directory, BANK_FILE);
}

/** Writes a bank where the screen reads it; returns its size in bytes. */
export function writeBank(file: string, bank: Bank, made: BankMade): number {
  const body = {
    format: BANK_FORMAT, task: bank.task, made, successWords: bank.successWords, policies: bank.policies,
    episodes: bank.episodes.map((e) => ({
      policy: e.policy, kind: e.kind, seed: e.seed, terminated: e.terminated, truncated: e.truncated, return: e.return,
      observations: Array.from(e.observations, shortestFloat32), recorded: Array.from(e.recorded, shortestFloat32),
      actions: Array.from(e.actions, shortestFloat32),
    })),
  };
  const bytes = gzipSync(JSON.stringify(body), { level: 9 });
  writeFileSync(file, bytes);
  return bytes.length;
}

/** The task's stored bank, checked against the task's shapes; undefined when it has none. */
export function readStoredBank(task: Task): Bank | undefined {
  const file = bankFile(task);
  if (!existsSync(file)) return undefined;
  const parsed = BankFileSchema.safeParse(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')));
  if (!parsed.success) throw new InvalidBank(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { data } = parsed;
  if (data.task !== task.id) throw new InvalidBank(`${file} is the bank of ${data.task}, not of ${task.id}`);
  if (data.format === BANK_FORMAT_1 && task.recordSize > 0) {
    throw new InvalidBank(`${file} was made before banks kept the recorded state ${task.id} now records: make it again (eureka bank --task ${task.id})`);
  }
  const episodes = data.episodes.map((e, i): BankEpisode => {
    const length = e.actions.length / task.actionSize;
    if (!Number.isInteger(length) || length < 1 || e.observations.length !== (length + 1) * task.obsSize || e.recorded.length !== (length + 1) * task.recordSize) {
      throw new InvalidBank(`${file}: episode ${i} does not have ${task.obsSize} observation values, ${task.recordSize} recorded values and ${task.actionSize} action values a step`);
    }
    // All were stored as the shortest decimal that rounds back to their float32 (the recorded
    // state rounded to float32 on purpose: a bank holds many long episodes); parsed as a double that
    // decimal is near, not at, the float32, so it is rounded back.
    return {
      ...e, length, observations: Float32Array.from(e.observations), recorded: Float64Array.from(e.recorded, Math.fround),
      actions: Float64Array.from(e.actions, Math.fround),
    };
  });
  return { task: task.id, stored: true, successWords: data.successWords, policies: data.policies, episodes };
}

const banks = new Map<string, Bank>();

/** The bank the screen runs on: the stored one, or one made now (once per process and task folder). */
export function loadBank(task: Task): Bank {
  const file = bankFile(task);
  const known = banks.get(file);
  if (known) return known;
  const bank = readStoredBank(task) ?? {
    task: task.id, stored: false, successWords: successWords(task),
    policies: policyInfos(task),
    episodes: policyEpisodes(task),
  };
  banks.set(file, bank);
  return bank;
}

/** The fewest significant digits that read back as the same float32. */
export function shortestFloat32(value: number): number {
  for (let digits = 6; digits < 9; digits++) {
    const short = Number(value.toPrecision(digits));
    if (Math.fround(short) === value) return short;
  }
  return Number(value.toPrecision(9));
}
