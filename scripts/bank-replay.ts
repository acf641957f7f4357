/**
 * Upgrades stored banks to the format that keeps each episode's seed and actions (bank@2,
 * tasks/bank-file.ts) without training anything: every episode of the old file is played again
 * from its seed with its stored actions, and must show the stored observations to the last bit
 * (the environments are deterministic). An episode whose kind the task's success test no longer
 * gives (a success test changed since) is dropped and said.
 *
 *   npx tsx scripts/bank-replay.ts Hopper-v5 [Walker2d-v5 ...]
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { passes, replayEpisode, type Bank, type BankEpisode } from '../tasks/bank.ts';
import { bankFile, writeBank } from '../tasks/bank-file.ts';
import type { Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';

interface StoredEpisode { policy: string; kind: 'success' | 'failure'; seed: number; terminated: boolean; truncated: boolean; return: number; observations?: number[]; actions: number[] }
interface StoredBank { format: string; task: string; made: Record<string, unknown>; successWords: string; policies: Bank['policies']; episodes: StoredEpisode[] }

/** The stored episode played again; throws where an observation does not come back to the last bit. */
function replay(task: Task, stored: StoredEpisode): BankEpisode {
  const actions = Float64Array.from(stored.actions, Math.fround);
  const episode: BankEpisode = { policy: stored.policy, kind: stored.kind, seed: stored.seed, actions, ...replayEpisode(task, stored.seed, actions) };
  const differs = stored.observations === undefined || stored.observations.length !== episode.observations.length
    || episode.observations.some((o, j) => o !== Math.fround(stored.observations?.[j] ?? Number.NaN));
  if (differs) throw new Error(`${task.id} seed ${stored.seed} (${stored.policy}): the replay parts from the stored observations`);
  return episode;
}

for (const id of process.argv.slice(2)) {
  const task = await prepareTask(id);
  const file = bankFile(task);
  const stored = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as StoredBank;
  if (stored.format !== 'eureka-serverless/bank@1') throw new Error(`${file} is ${stored.format}, not a bank@1 to upgrade`);
  const episodes = stored.episodes.map((e) => replay(task, e));
  const kept = episodes.filter((e) => passes(task, e) === (e.kind === 'success'));
  for (const e of episodes.filter((x) => !kept.includes(x))) process.stdout.write(`${id}: dropped seed ${e.seed} (${e.policy}): no longer a ${e.kind} of its success test\n`);
  const bank: Bank = { task: task.id, stored: true, successWords: stored.successWords, policies: stored.policies, episodes: kept };
  const bytes = writeBank(file, bank, stored.made);
  process.stdout.write(`${file}: ${kept.length} of ${episodes.length} episodes, ${(bytes / 1024).toFixed(1)} KiB\n`);
}
