/**
 * A local search's candidates read back from its data folder (`--data-dir`'s bucket): each one's
 * reward and how long its seed-runs' training episodes lasted at three points: their first
 * rollouts, the race's first rung (the smallest step a seed-run was graded at; 10% of the budget
 * when the search was not raced) and the last step it trained. For benches that set what a reward
 * was checked to pay beside what its training then did.
 */
import { join, resolve } from 'node:path';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { searchPrefix } from '../functions/shared/store/keys.ts';
import type { CurvePoint, SeedResult } from '../functions/shared/search/types.ts';

export interface SearchCandidate {
  generation: number;
  candidateId: string;
  code: string;
  /** One a seed-run: the mean training episode length [first rollouts, first rung, last step]; null where none ended. */
  lengths: Array<[number | null, number | null, number | null]>;
  /** The search's first rung (10% of the budget when it was not raced). */
  rungStep: number;
}

/** Rollouts averaged at each point, so one short rollout does not stand for the point. */
const ROLLOUTS = 5;

export async function searchCandidates(dataDir: string, searchId: string): Promise<SearchCandidate[]> {
  const blobs = new FsBlobStore(join(resolve(dataDir), 'bucket'));
  const prefix = `${searchPrefix(searchId)}/generations/`;
  const keys = await blobs.list(prefix);
  if (keys.length === 0) throw new Error(`no search ${searchId} in ${blobs.location}`);
  const rewards = keys.filter((k) => k.endsWith('/reward.js'));
  const loaded = await Promise.all(rewards.map(async (rewardKey) => {
    const dir = rewardKey.slice(0, -'/reward.js'.length);
    const [generation, , candidateId] = dir.slice(prefix.length).split('/');
    const seedKeys = keys.filter((k) => k.startsWith(`${dir}/seeds/`) && /\/(result|rungs\/\d+)\.json$/.test(k));
    const results = await Promise.all(seedKeys.map(async (k) => JSON.parse((await blobs.getText(k)) ?? '{}') as SeedResult));
    const bySeed = new Map<number, SeedResult[]>();
    for (const r of results) bySeed.set(r.seed, [...(bySeed.get(r.seed) ?? []), r]);
    // A seed-run's results by the steps they were graded at: the last holds its whole curve.
    const seeds = [...bySeed.values()].map((rs) => rs.sort((a, b) => a.stepsTrained - b.stepsTrained));
    return { generation: Number(generation), candidateId, code: (await blobs.getText(rewardKey)) ?? '', seeds };
  }));
  const all = loaded.flatMap((c) => c.seeds.flat());
  if (all.length === 0) throw new Error(`search ${searchId} in ${blobs.location} has no seed-run results yet`);
  // One first rung for the whole search, so every candidate is read at the same step (the baselines are not raced).
  const graded = all.filter((r) => r.stepsTrained < r.steps).map((r) => r.stepsTrained);
  const rungStep = graded.length > 0 ? Math.min(...graded) : Math.round(all[0].steps / 10);
  return loaded.filter((c) => c.seeds.length > 0).map(({ generation, candidateId, code, seeds }) => ({
    generation, candidateId, code, rungStep,
    lengths: seeds.map((rs) => {
      const curve = rs[rs.length - 1].curve;
      const upTo = curve.filter((p) => p.step <= rungStep);
      return [meanLength(curve.slice(0, ROLLOUTS)), meanLength(upTo.slice(-ROLLOUTS)), meanLength(curve.slice(-ROLLOUTS))] as [number | null, number | null, number | null];
    }),
  })).sort((a, b) => a.generation - b.generation || a.candidateId.localeCompare(b.candidateId));
}

function meanLength(points: CurvePoint[]): number | null {
  const known = points.map((p) => p.episodeLength).filter((l): l is number => l !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}
