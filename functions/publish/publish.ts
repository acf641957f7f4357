/**
 * "Publish the winner": score the winner and the baselines on their fresh seeds (the honest score:
 * the search score is the best of many and biased upward), copy the winner's reward and policy,
 * and write summary.json and the card. A pure function of what is stored: safe to retry.
 */
import type { PublishEvent, PublishResult } from '../shared/search/contracts.ts';
import { seedPolicyPrefix, winnerPrefix } from '../shared/store/keys.ts';
import type { CandidateRecord } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { logger, metrics, MetricUnit } from '../shared/ops/telemetry.ts';
import type { SeedSummary } from '../shared/search/types.ts';
import { assembleCard } from '../shared/card/assemble-card.ts';
import type { AnyCardData } from '../shared/card/card-data.ts';
import { renderCardHtml } from '../shared/card/card-html.ts';
import { renderCardMarkdown } from '../shared/card/card-md.ts';
import { renderNoWinnerHtml, renderNoWinnerMarkdown } from '../shared/card/card-no-winner.ts';
import { buildSummary, type SearchSummary } from './summary.ts';
import { testMoment } from '../shared/ops/test-hold.ts';

export async function publish(store: SearchStore, event: PublishEvent): Promise<PublishResult> {
  const { searchId } = event;
  const finishedAt = new Date().toISOString();
  const assembled = await assembleCard(store, searchId, event.freshResults, finishedAt);
  const prefix = winnerPrefix(searchId);
  const pages = { cardHtml: `${prefix}/card.html`, cardMd: `${prefix}/card.md`, summary: `${prefix}/summary.json` };
  let keys: SearchSummary['artifacts'];
  let policySeed: number | null = null;
  if (assembled.winnerRecord === null) {
    // No candidate trained: the card and summary say why; there is no reward or policy to copy.
    keys = { ...pages, reward: null, policy: null };
    await store.blobs.put(keys.cardMd, renderNoWinnerMarkdown(assembled.card), 'text/markdown');
    await store.blobs.put(keys.cardHtml, renderNoWinnerHtml(assembled.card), 'text/html');
  } else {
    const { card, winnerRecord } = assembled;
    keys = { ...pages, reward: `${prefix}/reward.js`, policy: `${prefix}/policy/` };
    policySeed = await copyPolicy(store, searchId, winnerRecord, event.freshResults, `${prefix}/policy`);
    await store.blobs.put(`${prefix}/reward.js`, card.winner.code, 'text/javascript');
    await store.blobs.put(keys.cardMd, renderCardMarkdown(card), 'text/markdown');
    await store.blobs.put(keys.cardHtml, renderCardHtml(card), 'text/html');
  }
  const { card } = assembled;
  // The kill-and-resume test's moment (test-hold.ts): the card written, summary.json and the WINNER record not yet.
  testMoment('publish', searchId);
  // The local runtime records the execution history's count in META before Publish runs.
  const summary: SearchSummary = buildSummary(card, keys, policySeed, (await store.meta(searchId)).history ?? null);
  await store.blobs.put(keys.summary, JSON.stringify(summary, null, 2), 'application/json');
  await store.putWinner(searchId, { winner: summary.winner, baselines: summary.baselines, keys, finishedAt });
  await store.updateMeta(searchId, { status: 'finished' });
  recordWinner(card, finishedAt);

  const { winner, baselines } = card;
  return {
    searchId,
    winner: winner === null ? null
      : { generation: winner.generation, candidateId: winner.candidateId, name: winner.name, searchSuccess: winner.searchSuccess, freshSuccess: winner.freshSuccess ?? 0 },
    baselines: baselines.map((b) => ({ candidateId: b.candidateId, searchSuccess: b.searchSuccess, freshSuccess: b.freshSuccess ?? 0 })),
    cardKey: keys.cardHtml,
  };
}

/** The winner's line, its fresh score and the search's duration as metrics. */
function recordWinner(card: AnyCardData, finishedAt: string): void {
  const seconds = (Date.parse(finishedAt) - Date.parse(card.startedAt)) / 1000;
  logger.info(card.winner === null ? 'published: no candidate trained' : 'winner published', {
    task: card.task, winner: card.winner?.candidateId ?? null, generation: card.winner?.generation ?? null, searchSuccess: card.winner?.searchSuccess ?? null,
    freshSuccess: card.winner?.freshSuccess ?? null, durationSeconds: seconds, costUsd: card.proposer.costUsd, stoppedBy: card.stopped?.reason ?? null,
    ...(card.winner === null ? { nothingTrained: card.nothingTrained } : {}),
  });
  if (card.winner !== null && card.winner.freshSuccess !== null) metrics.addMetric('WinnerFreshSuccess', MetricUnit.NoUnit, card.winner.freshSuccess);
  if (Number.isFinite(seconds)) metrics.addMetric('SearchDurationSeconds', MetricUnit.Seconds, seconds);
}

/** Copies the policy of the winner's best fresh seed; returns that seed (null if no policy was saved). */
async function copyPolicy(store: SearchStore, searchId: string, record: CandidateRecord, fresh: SeedSummary[], to: string): Promise<number | null> {
  const trained = fresh.filter((s) => s.candidateId === record.candidateId && s.outcome === 'trained')
    .sort((a, b) => b.success - a.success || a.seed - b.seed);
  if (trained.length === 0) return null;
  const from = seedPolicyPrefix(searchId, record.generation, record.candidateId, trained[0].seed);
  const keys = await store.blobs.list(`${from}/`);
  for (const key of keys) {
    const body = await store.blobs.get(key);
    if (body) await store.blobs.put(`${to}/${key.slice(from.length + 1)}`, body);
  }
  return keys.length > 0 ? trained[0].seed : null;
}
