/**
 * The proposer's bill, kept as it runs up (DESIGN §2: "never pays twice"): before each request to
 * the model its worst case is reserved in the table; the reply, once it arrives, is stored in the
 * bucket and the reservation becomes its bill, all before the reply is checked against the schema.
 * So the budget (budget.ts) counts every billed reply, also one that failed its schema, one of an
 * attempt that failed, and one cut off mid-stream (at its worst case); and a retried, redriven or
 * resumed request replays the replies it was billed for instead of asking again.
 */
import { randomUUID } from 'node:crypto';
import { searchPrefix } from '../shared/store/keys.ts';
import type { AnswerKind, BillRecord } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { metrics, MetricUnit } from '../shared/ops/telemetry.ts';
import { BudgetRefused, commitSpending } from './budget.ts';
import type { BilledReply, ReplyLedger, Reservation } from './proposer.ts';

const usd = (x: number): string => `$${x.toFixed(x < 1 ? 4 : 2)}`;

/**
 * `ceilingUsd`: the search's maxCostUsd; each reservation is held against it in one conditional
 * write (budget.ts). `timeLeftMs`: the invocation's deadline (a schema repair that could not finish is not sent).
 */
export function searchLedger(
  store: SearchStore, searchId: string, generation: number, kind: AnswerKind, model: string, ceilingUsd: number | null = null, timeLeftMs?: () => number,
): ReplyLedger {
  return {
    ...(timeLeftMs === undefined ? {} : { timeLeftMs }),
    async stored(step, promptHash) {
      const billed = (await store.bills(searchId, { generation, kind, step })).filter((b) => b.state === 'billed' && b.promptHash === promptHash);
      for (const bill of billed.sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
        const text = await store.blobs.getText(bill.replyKey);
        if (text !== undefined) return JSON.parse(text) as BilledReply;
      }
      return undefined;
    },
    async reserve(step, worstCaseUsd, promptHash): Promise<Reservation> {
      const held = ceilingUsd !== null && worstCaseUsd !== null ? worstCaseUsd : 0;
      if (held > 0 && !(await commitSpending(store, searchId, held, ceilingUsd as number))) {
        throw new BudgetRefused(`generation ${generation}'s ${kind === 'proposal' ? 'request' : 'repair request'} (step ${step}) could cost up to ${usd(held)}, ` +
          `more than the ${usd(ceilingUsd as number)} budget has left beside what the search's other requests hold`);
      }
      const id = randomUUID();
      const base: BillRecord = {
        generation, kind, step, state: 'reserved', model, usage: null, costUsd: worstCaseUsd, replyKey: '', promptHash, createdAt: new Date().toISOString(),
      };
      await store.putBill(searchId, id, base);
      return {
        async billed(reply, costUsd) {
          const replyKey = `${searchPrefix(searchId)}/generations/${generation}/replies/${kind}-${step}-${id}.json`;
          await store.blobs.put(replyKey, JSON.stringify(reply), 'application/json');
          await store.putBill(searchId, id, { ...base, state: 'billed', usage: reply.usage, costUsd, replyKey });
          if (held > 0 && costUsd !== null) await commitSpending(store, searchId, costUsd - held, ceilingUsd as number);
          recordBill(kind, reply, costUsd);
        },
        async released() {
          await store.putBill(searchId, id, { ...base, state: 'released', costUsd: 0 });
          if (held > 0) await commitSpending(store, searchId, -held, ceilingUsd as number);
        },
      };
    },
  };
}

/** The model's usage as metrics, once per billed reply (a replayed one was counted when it was billed). */
function recordBill(kind: AnswerKind, reply: BilledReply, costUsd: number | null): void {
  const { usage } = reply;
  metrics.addDimension('request', kind);
  metrics.addMetric('ModelInputTokens', MetricUnit.Count, usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens);
  metrics.addMetric('ModelOutputTokens', MetricUnit.Count, usage.outputTokens);
  if (costUsd !== null) metrics.addMetric('ModelCostUsd', MetricUnit.NoUnit, costUsd);
}
