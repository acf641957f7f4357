/**
 * Typed access to one search's records (table) and objects (bucket), shared by the handlers.
 * Records are stored as the item's fields next to pk/sk.
 */
import type { BlobStore } from './blob.ts';
import { blobStoreFromEnv } from './blob-from-env.ts';
import {
  BILL_MARK, META_SK, WINNER_SK, answerKindOf, answerSk, billPrefix, billSk, candidateSk, feedbackSk, generationPrefix, raceSk, searchPk, summarySk,
  type AnswerKind, type BillRecord, type CandidateRecord, type FeedbackRecord, type MetaRecord, type ProposalRecord, type RaceRecord,
  type StoredAnswerRecord, type SummaryRecord,
} from './records.ts';
import { Table, tableFromEnv, type Item } from './table.ts';
import type { SeedResult } from '../search/types.ts';

export class SearchNotFound extends Error {
  override readonly name = 'SearchNotFound';
}

export class SearchStore {
  constructor(readonly table: Table, readonly blobs: BlobStore) {}

  static fromEnv(): SearchStore {
    return new SearchStore(tableFromEnv(), blobStoreFromEnv());
  }

  async meta(searchId: string): Promise<MetaRecord> {
    const item = await this.table.getItem(searchPk(searchId), META_SK);
    if (!item) throw new SearchNotFound(`no search ${searchId}`);
    return fields<MetaRecord>(item);
  }

  /** Records the search once; a redrive or resume gets the record that is already there. */
  async createMeta(searchId: string, meta: MetaRecord): Promise<{ created: boolean; meta: MetaRecord }> {
    const { created, item } = await this.table.putIfAbsentOrGet({ pk: searchPk(searchId), sk: META_SK, ...meta });
    return { created, meta: fields<MetaRecord>(item) };
  }

  async updateMeta(searchId: string, update: Partial<MetaRecord>): Promise<void> {
    await this.table.updateFields(searchPk(searchId), META_SK, { ...update, updatedAt: new Date().toISOString() });
  }

  /** The proposer's answer to the generation's proposal or repair request, if one was made. */
  async answer(searchId: string, generation: number, kind: AnswerKind): Promise<ProposalRecord | undefined> {
    const item = await this.table.getItem(searchPk(searchId), answerSk(generation, kind));
    return item && fields<ProposalRecord>(item);
  }

  /** Conditional put: the first answer stored for a request wins; a retry gets the stored one. */
  async storeAnswer(searchId: string, generation: number, kind: AnswerKind, record: ProposalRecord): Promise<ProposalRecord> {
    const { item } = await this.table.putIfAbsentOrGet({ pk: searchPk(searchId), sk: answerSk(generation, kind), ...record });
    return fields<ProposalRecord>(item);
  }

  /** Every stored proposer answer of the search, proposals and repairs: what it cost. */
  async answers(searchId: string): Promise<StoredAnswerRecord[]> {
    const items = await this.table.queryPrefix(searchPk(searchId), 'GEN#');
    return items.flatMap((i) => {
      const kind = answerKindOf(i.sk);
      return kind === undefined ? [] : [{ ...fields<ProposalRecord>(i), kind }];
    });
  }

  /** Records (or replaces) a billed reply: the model's bill, step by step, before the reply is checked. */
  async putBill(searchId: string, id: string, record: BillRecord): Promise<void> {
    await this.table.putItem({ pk: searchPk(searchId), sk: billSk(record.generation, record.kind, record.step, id), ...record });
  }

  /** The bills of one step of a request, or of the whole search. */
  async bills(searchId: string, of?: { generation: number; kind: AnswerKind; step: number }): Promise<BillRecord[]> {
    const items = of === undefined
      ? (await this.table.queryPrefix(searchPk(searchId), 'GEN#')).filter((i) => i.sk.includes(BILL_MARK))
      : await this.table.queryPrefix(searchPk(searchId), billPrefix(of.generation, of.kind, of.step));
    return items.map((i) => fields<BillRecord>(i));
  }

  async feedback(searchId: string, generation: number): Promise<FeedbackRecord | undefined> {
    const item = await this.table.getItem(searchPk(searchId), feedbackSk(generation));
    return item && fields<FeedbackRecord>(item);
  }

  /** Every pause of the search, in generation order. */
  async feedbacks(searchId: string): Promise<FeedbackRecord[]> {
    return this.everyGeneration<FeedbackRecord>(searchId, '#FEEDBACK');
  }

  /** Records a pause (a retried "Wait for feedback" replaces it: its token is new). */
  async putFeedback(searchId: string, record: FeedbackRecord): Promise<void> {
    await this.table.putItem({ pk: searchPk(searchId), sk: feedbackSk(record.generation), ...record });
  }

  async answerFeedback(searchId: string, generation: number, answer: NonNullable<FeedbackRecord['answer']>): Promise<void> {
    await this.table.updateFields(searchPk(searchId), feedbackSk(generation), { answer });
  }

  async putCandidate(searchId: string, record: CandidateRecord): Promise<void> {
    await this.table.putItem({ pk: searchPk(searchId), sk: candidateSk(record.generation, record.candidateId), ...record });
  }

  async candidates(searchId: string, generation: number): Promise<CandidateRecord[]> {
    const items = await this.table.queryPrefix(searchPk(searchId), `${generationPrefix(generation)}CAND#`);
    return items.map((item) => fields<CandidateRecord>(item));
  }

  async putSummary(searchId: string, record: SummaryRecord): Promise<void> {
    await this.table.putItem({ pk: searchPk(searchId), sk: summarySk(record.generation), ...record });
  }

  async summary(searchId: string, generation: number): Promise<SummaryRecord | undefined> {
    const item = await this.table.getItem(searchPk(searchId), summarySk(generation));
    return item && fields<SummaryRecord>(item);
  }

  /** Every generation's summary, in order. */
  async summaries(searchId: string): Promise<SummaryRecord[]> {
    return this.everyGeneration<SummaryRecord>(searchId, '#SUMMARY');
  }

  /** Records one rung of a generation's race; a retried Promote writes the same rung again. */
  async putRaceRung(searchId: string, base: Omit<RaceRecord, 'rungs'>, rung: RaceRecord['rungs'][number]): Promise<RaceRecord> {
    const stored = await this.race(searchId, base.generation);
    const rungs = [...(stored?.rungs ?? []).filter((r) => r.rung !== rung.rung), rung].sort((a, b) => a.rung - b.rung);
    const record: RaceRecord = { ...base, rungs };
    await this.table.putItem({ pk: searchPk(searchId), sk: raceSk(base.generation), ...record });
    return record;
  }

  async race(searchId: string, generation: number): Promise<RaceRecord | undefined> {
    const item = await this.table.getItem(searchPk(searchId), raceSk(generation));
    return item && fields<RaceRecord>(item);
  }

  /** Every generation's race, in order. */
  async races(searchId: string): Promise<RaceRecord[]> {
    return this.everyGeneration<RaceRecord>(searchId, '#RACE');
  }

  async putWinner<T extends object>(searchId: string, record: T): Promise<void> {
    await this.table.putItem({ pk: searchPk(searchId), sk: WINNER_SK, ...record });
  }

  async winner<T>(searchId: string): Promise<T | undefined> {
    const item = await this.table.getItem(searchPk(searchId), WINNER_SK);
    return item && fields<T>(item);
  }

  async result(key: string): Promise<SeedResult | undefined> {
    const text = await this.blobs.getText(key);
    return text === undefined ? undefined : (JSON.parse(text) as SeedResult);
  }

  /** The records of one kind (the sort key's suffix), one per generation, in generation order. */
  private async everyGeneration<T extends { generation: number }>(searchId: string, suffix: string): Promise<T[]> {
    const items = await this.table.queryPrefix(searchPk(searchId), 'GEN#');
    return items.filter((i) => i.sk.endsWith(suffix)).map((i) => fields<T>(i)).sort((a, b) => a.generation - b.generation);
  }
}

function fields<T>(item: Item): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}
