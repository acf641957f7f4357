/**
 * What a killed-and-resumed search (kill-resume.ts) is held to, against the same search run
 * without a kill: the same winner, the same parameters (thetaSha256) and chunk count for every
 * seed-run, each generation's summary and race as written without a kill, no model request and no
 * chunk done again but those in flight at a kill (counted at the loopback server and in the
 * moments the runs reached), and every stored record read back.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { baselinesOf } from '../../functions/shared/search/baselines.ts';
import { initBackend } from '../../functions/train-seed/backend.ts';
import { checkpointVersion, readCheckpoint } from '../../functions/train-seed/checkpoint.ts';
import { searchPk } from '../../functions/shared/store/records.ts';
import { withLocalStore } from '../../local/runtime.ts';
import { getTask } from '../../tasks/registry.ts';
import { SEARCH_ID, type KilledSearch } from './kill-resume.ts';

export interface SeedRunEnd { thetaSha256: string | null; chunks: number; stepsTrained: number; outcome: string }

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const bucketOf = (dataDir: string) => join(dataDir, 'bucket', 'searches', SEARCH_ID);

/** Every seed-run's end, at the budget (result.json) and at a rung of a race (rungs/<steps>.json), by its key. */
export async function seedRunEnds(dataDir: string): Promise<Map<string, SeedRunEnd>> {
  const out = new Map<string, SeedRunEnd>();
  for (const path of await files(bucketOf(dataDir))) {
    if (!path.endsWith('/result.json') && !/\/rungs\/\d+\.json$/.test(path)) continue;
    const r = JSON.parse(await readFile(path, 'utf8')) as SeedRunEnd;
    out.set(relative(bucketOf(dataDir), path), { thetaSha256: r.thetaSha256, chunks: r.chunks, stepsTrained: r.stepsTrained, outcome: r.outcome });
  }
  return out;
}

/**
 * What each generation left: its summary (best of the generation, best so far, scoreboard and the
 * reflection the next proposer reads) and its race's standings at every rung. A resume replays
 * every state from the start, so these must read as the uninterrupted search wrote them.
 */
export async function generationRecords(dataDir: string): Promise<{ summaries: unknown[]; races: unknown[] }> {
  return withLocalStore(dataDir, async (store) => ({ summaries: await store.summaries(SEARCH_ID), races: await store.races(SEARCH_ID) }));
}

export async function winnerOf(dataDir: string): Promise<{ generation: number; candidateId: string } | null> {
  const summary = JSON.parse(await readFile(join(bucketOf(dataDir), 'winner', 'summary.json'), 'utf8')) as { winner: { generation: number; candidateId: string } | null };
  return summary.winner === null ? null : { generation: summary.winner.generation, candidateId: summary.winner.candidateId };
}

/** Work done more than once: model requests (at the server) and chunks (each chunk's start, by seed-run and the steps it starts from). */
export function repeats(search: KilledSearch): { requests: number; chunks: number; chunkStarts: number; repeatedChunks: string[] } {
  const chunks = search.timeline.filter((r) => r.moment === 'chunk').map((r) => r.identity);
  const seen = new Set<string>();
  const repeatedChunks = chunks.filter((c) => (seen.has(c) ? true : (seen.add(c), false)));
  return { requests: search.requests.length - new Set(search.requests).size, chunks: repeatedChunks.length, chunkStarts: chunks.length, repeatedChunks };
}

/**
 * What does not read back: a JSON object of the bucket that does not parse, a checkpoint that
 * does not decode (its SHA-256 seal), an item of the table the store cannot read. Empty when all do.
 */
export async function unreadable(search: Pick<KilledSearch, 'dataDir' | 'shape'>): Promise<string[]> {
  const { dataDir } = search;
  const problems: string[] = [];
  const backend = await initBackend();
  for (const path of await files(bucketOf(dataDir))) {
    const name = relative(bucketOf(dataDir), path);
    if (path.endsWith('.json')) {
      try { JSON.parse(await readFile(path, 'utf8')); } catch (error) { problems.push(`${name}: ${(error as Error).message}`); }
    }
    const checkpoint = /generations\/\d+\/candidates\/[^/]+\/seeds\/(\d+)\/checkpoint\.bin$/.exec(path);
    if (checkpoint) {
      // The smoke search's seed-runs: MountainCar-v0, at the shape's steps (kill-resume.ts).
      const read = readCheckpoint(await readFile(path), checkpointVersion(getTask('MountainCar-v0'), Number(checkpoint[1]), search.shape.steps, backend));
      if (!('checkpoint' in read)) problems.push(`${name}: ${read.discarded}`);
    }
  }
  await withLocalStore(dataDir, async (store) => {
    const meta = await store.meta(SEARCH_ID);
    const items = await store.table.queryPrefix(searchPk(SEARCH_ID), '');
    const read: unknown[] = [meta, ...(await store.answers(SEARCH_ID)), ...(await store.summaries(SEARCH_ID)), ...(await store.races(SEARCH_ID)),
      ...(await store.feedbacks(SEARCH_ID)), ...(await store.bills(SEARCH_ID)), ...(await store.winner(SEARCH_ID) ? [1] : [])];
    for (let g = 0; g <= meta.config.generations; g++) read.push(...(await store.candidates(SEARCH_ID, g)));
    const baselines = (await store.candidates(SEARCH_ID, 0)).length;
    if (baselines !== baselinesOf(getTask(meta.config.task)).length) problems.push(`${baselines} baseline records`);
    if (meta.status !== 'finished') problems.push(`the search is ${meta.status}`);
    if (items.length < read.length) problems.push(`${items.length} items, ${read.length} records read`);
  });
  return problems;
}
