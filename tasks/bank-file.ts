/**
 * A task's stored bank: `bank.json.gz` in the task's folder, written by `eureka bank` and read by
 * the screen. Gzipped JSON that keeps, per episode, what makes it: its reset's seed and the actions
 * as the environment applied them (float32, written with as few digits as give the same float32
 * back), with a SHA-256 of what the environment then showed (observations and recorded state). The
 * screen replays each episode in the task's own environment and checks the digest: the
 * environments are deterministic per seed (a seed-run trained in chunks ends bit for bit as one
 * trained whole), so a bank holds many long episodes (Ant's walks) in a few KiB, and an
 * environment changed since the bank was made is caught by name, not screened on silently.
 *
 * Without a stored file the bank is made on the fly from the task's policies (bank.ts), once per
 * process: the failures and declared successes, without the trained ones.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { episodeDigest, policyEpisodes, policyInfos, replayEpisode, successWords, type Bank, type BankEpisode } from './bank.ts';
import type { Task } from './contract.ts';

export const BANK_FILE = 'bank.json.gz';
export const BANK_FORMAT = 'eureka-serverless/bank@2';
/** The format that stored every observation: still read for a task that records no state beside them. */
const BANK_FORMAT_1 = 'eureka-serverless/bank@1';

export class InvalidBank extends Error {
  override readonly name = 'InvalidBank';
}

const Kind = z.enum(['success', 'failure']);
const Header = {
  task: z.string(),
  /** How it was made: the command, and what the trained successes were trained with. */
  made: z.record(z.string(), z.unknown()),
  successWords: z.string().min(1),
  policies: z.array(z.object({ name: z.string(), kind: Kind, words: z.string().min(1) })).min(1),
};
const EpisodeHeader = { policy: z.string(), kind: Kind, seed: z.int(), terminated: z.boolean(), truncated: z.boolean(), return: z.number(), actions: z.array(z.number()) };

const BankFileSchema = z.discriminatedUnion('format', [
  z.object({ format: z.literal(BANK_FORMAT), ...Header, episodes: z.array(z.object({ ...EpisodeHeader, sha256: z.string().regex(/^[0-9a-f]{64}$/) })).min(1) }),
  z.object({ format: z.literal(BANK_FORMAT_1), ...Header, episodes: z.array(z.object({ ...EpisodeHeader, observations: z.array(z.number()) })).min(1) }),
]);

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
      actions: Array.from(e.actions, shortestFloat32), sha256: episodeDigest(e),
    })),
  };
  const bytes = gzipSync(JSON.stringify(body), { level: 9 });
  writeFileSync(file, bytes);
  return bytes.length;
}

/** The stored file held to `schema`, or an InvalidBank naming the file and each field that does not fit. */
function readBankFile<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')));
  if (!parsed.success) throw new InvalidBank(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** How the stored bank was made (its `made`: the command, each trained or added policy's seeds or folder), read without replaying it; {} without a file. */
export function storedMade(task: Pick<Task, 'directory'>): BankMade {
  const file = bankFile(task);
  return existsSync(file) ? readBankFile(file, z.object({ made: Header.made })).made : {};
}

/**
 * The task's stored bank, every episode replayed in the task's environment (prepared) and checked
 * against its digest; undefined when it has none.
 */
export function readStoredBank(task: Task): Bank | undefined {
  const file = bankFile(task);
  if (!existsSync(file)) return undefined;
  const data = readBankFile(file, BankFileSchema);
  if (data.task !== task.id) throw new InvalidBank(`${file} is the bank of ${data.task}, not of ${task.id}`);
  const episodes = data.format === BANK_FORMAT ? data.episodes.map((e, i) => replayed(task, file, i, e)) : storedEpisodes(task, file, data.episodes);
  return { task: task.id, stored: true, successWords: data.successWords, policies: data.policies, episodes };
}

type StoredHeader = { policy: string; kind: 'success' | 'failure'; seed: number; terminated: boolean; truncated: boolean; return: number; actions: number[] };

/** One episode played again from its seed with its stored actions; refused where the environment now shows another. */
function replayed(task: Task, file: string, i: number, stored: StoredHeader & { sha256: string }): BankEpisode {
  const length = stored.actions.length / task.actionSize;
  if (!Number.isInteger(length) || length < 1) throw new InvalidBank(`${file}: episode ${i} does not have ${task.actionSize} action values a step`);
  // Stored as the shortest decimal that rounds back to the float32 the environment was given.
  const actions = Float64Array.from(stored.actions, Math.fround);
  const play = replayEpisode(task, stored.seed, actions);
  const episode: BankEpisode = { ...stored, ...play, actions };
  if (play.length !== length || play.terminated !== stored.terminated || play.truncated !== stored.truncated || episodeDigest(episode) !== stored.sha256) {
    throw new InvalidBank(`${file}: episode ${i} (${stored.policy}, seed ${stored.seed}) plays otherwise in ${task.id}'s environment now than when the bank was made: ` +
      `make the bank again (eureka bank --task ${task.id})`);
  }
  return episode;
}

/** A bank@1 file's episodes, observations and all; refused where the task records state those files lack. */
function storedEpisodes(task: Task, file: string, stored: Array<StoredHeader & { observations: number[] }>): BankEpisode[] {
  if (task.recordSize > 0) {
    throw new InvalidBank(`${file} was made before banks kept the recorded state ${task.id} now records: make it again (eureka bank --task ${task.id})`);
  }
  return stored.map((e, i) => {
    const length = e.actions.length / task.actionSize;
    if (!Number.isInteger(length) || length < 1 || e.observations.length !== (length + 1) * task.obsSize) {
      throw new InvalidBank(`${file}: episode ${i} does not have ${task.obsSize} observation values a step and ${task.actionSize} action values`);
    }
    return { ...e, length, observations: Float32Array.from(e.observations), recorded: new Float64Array(0), actions: Float64Array.from(e.actions, Math.fround) };
  });
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
