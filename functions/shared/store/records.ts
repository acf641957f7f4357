/**
 * The search's records in the table (DESIGN §3): one partition per search, sort keys by
 * generation. These types are what the handlers write and read back.
 */
import type { SearchEstimate } from '../cost/estimate.ts';
import type { CheckVerdict, Outcome, SeedEpisodes, SeedSummary, TermStats } from '../search/types.ts';
import type { SearchSettings } from '../search/contracts.ts';

/** A model reply's tokens, as the Messages API counts them. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Of outputTokens, those the model spent thinking (extended thinking); absent on older records. */
  thinkingTokens?: number;
}

export const searchPk = (searchId: string): string => `SEARCH#${searchId}`;
const gen = (generation: number): string => `GEN#${String(generation).padStart(4, '0')}`;
/** The reason's start of a candidate that never trained: the card and the scoreboard count them by it. */
export const FAILED_CHECK = 'failed its check';
/** A check's reason when the task's own code (its success test, progress, a folder that does not load) failed there, not the reward. */
export const TASK_CODE_FAILED = 'the task\'s own code failed, not the reward';
/** The start of the reason of a candidate the screen kept from training (functions/reflect/screen-plan.ts). */
export const SCREEN_KEPT = 'not trained';

export const META_SK = 'META';
export const WINNER_SK = 'WINNER';
/** The search's committed spending on the model, held against its ceiling (functions/propose/budget.ts). */
export const BUDGET_SK = 'BUDGET';
const ANSWER_SUFFIX: Record<AnswerKind, string> = { proposal: '#PROPOSAL', repair: '#REPAIR' };
/** The proposer's stored answer to the generation's proposal or repair request. */
export const answerSk = (generation: number, kind: AnswerKind): string => `${gen(generation)}${ANSWER_SUFFIX[kind]}`;
/** Which request a sort key holds the answer to; undefined when it is not an answer. */
export const answerKindOf = (sk: string): AnswerKind | undefined =>
  (Object.keys(ANSWER_SUFFIX) as AnswerKind[]).find((kind) => sk.endsWith(ANSWER_SUFFIX[kind]));
/** One billed (or reserved) reply of the generation's request: step 1 answers it, step 2 its schema repair. */
export const billSk = (generation: number, kind: AnswerKind, step: number, id: string): string => `${billPrefix(generation, kind, step)}${id}`;
export const billPrefix = (generation: number, kind: AnswerKind, step: number): string => `${gen(generation)}${BILL_MARK}${kind}#${step}#`;
export const BILL_MARK = '#BILL#';
export const feedbackSk = (generation: number): string => `${gen(generation)}#FEEDBACK`;
export const candidateSk = (generation: number, candidateId: string): string => `${gen(generation)}#CAND#${candidateId}`;
export const summarySk = (generation: number): string => `${gen(generation)}#SUMMARY`;
export const raceSk = (generation: number): string => `${gen(generation)}#RACE`;
export const generationPrefix = (generation: number): string => `${gen(generation)}#`;

/** The baselines and the fresh-seed re-check are recorded as generation 0. */
export const BASELINE_GENERATION = 0;
/** Fresh seeds start here: the search's own seeds are 0..S-1. */
export const FRESH_SEED_OFFSET = 10_000;

export interface MetaRecord {
  config: SearchSettings;
  status: 'running' | 'finished';
  startedAt: string;
  updatedAt: string;
  best: BestPointer | null;
  /** Why the search finished before its last generation, when it did. */
  stoppedBy?: StopRecord;
  /** The execution that started the search ($$.Execution.Name): only its redrive may continue it. */
  executionName?: string;
  /** The execution history as Step Functions counts it, measured by the local runtime (AWS: its console). */
  history?: HistoryRecord;
  /** What "Start the search" estimated it would train and cost (estimate.ts); absent in searches stored before it. */
  estimate?: SearchEstimate;
}

/** History events per execution (the quota is 25,000 each): the search's own, and its seed-runs' child executions. */
export interface HistoryRecord {
  search: number;
  /** How many seed-run child executions there were, and the most events one had. */
  seedRunExecutions: number;
  largestSeedRun: number;
  limit: number;
}

export interface StopRecord {
  reason: 'budget' | 'feedback';
  /** The generation that was not proposed (budget), or after which a person said stop. */
  generation: number;
  /** One line: "the next request could cost up to $0.42; $1.80 of $2.00 was spent". */
  detail: string;
  spentUsd: number | null;
}

export interface BestPointer {
  generation: number;
  candidateId: string;
  name: string;
  success: number;
  /** The task's progress (absent on records from before it was kept). */
  progress?: number | null;
  meanSuccessSteps: number | null;
  meanReturn: number | null;
  /** How early it learned (the mean over its seeds of SeedResult.trainSuccessArea). */
  trainSuccessArea?: number | null;
}

/** One candidate as proposed: code lives in the bucket (reward.js), its hash here. */
export interface ProposedCandidate {
  candidateId: string;
  name: string;
  idea: string;
  codeHash: string;
  /** 'proposer', 'hostile', 'human' or 'baseline'. */
  origin: 'proposer' | 'hostile' | 'human' | 'baseline';
  /** The candidate this one repairs (Repair rewards), if it is a repair. */
  repairOf?: string;
}

/** A stored proposer answer: the generation's proposal, or its repair request's answer. */
export interface ProposalRecord {
  proposer: string;
  model: string;
  usage: TokenUsage | null;
  costUsd: number | null;
  promptHash: string;
  notes: string[];
  /**
   * What the proposer wrote before its candidates: its reading of the feedback, what it changes and
   * why (clipped to keep the item small; the full answer is in answerKey). Absent on older records.
   */
  analysis?: string;
  /** The model's raw answer (clipped to keep the item small; the full answer is in answerKey). */
  raw: string;
  answerKey: string;
  candidates: ProposedCandidate[];
  createdAt: string;
  /** The request failed (a refusal, an answer that failed its schema twice, no usable candidate, an API error): no candidates. */
  failure?: RequestFailure;
}

/** Why a request to the proposer gave no answer, and which candidates it was about (a repair's failed ones). */
export interface RequestFailure {
  /** One line: "repair request failed: The model refused ...". */
  reason: string;
  candidateIds: string[];
}

/** A candidate's results aggregated over its seeds. */
export interface CandidateRecord extends ProposedCandidate {
  generation: number;
  /** Mean success over the seeds (a failed seed counts 0). */
  success: number;
  /** Mean over the seeds that measured it: steps of the successful episodes. */
  meanSuccessSteps: number | null;
  /** Mean over the trained seeds: return on the environment's own reward. */
  meanReturn: number | null;
  /** Mean over the trained seeds: the task's progress, the rank's second key. */
  progress: number | null;
  outcome: Outcome;
  reason: string;
  seeds: Array<Pick<SeedSummary, 'seed' | 'success' | 'outcome' | 'reason' | 'meanSuccessSteps' | 'meanReturn'> & { progress?: number | null; stepsTrained?: number; wallSeconds?: number }>;
  /** Its sandbox check before training (null for the baselines, which are not checked). */
  check: { verdict: CheckVerdict; reason: string } | null;
  terms: Record<string, TermStats>;
  /** How each trained seed's training and evaluation episodes ended (absent on older records). */
  episodes?: Array<{ seed: number } & SeedEpisodes>;
  trainSuccessSeries: number[];
  /** Means over the seeds that measured them: how early it learned (SeedResult's fields). */
  trainSuccessArea: number | null;
  stepsToHalfSuccess: number | null;
  /** Environment steps its seed-runs trained, together. */
  stepsTrained: number;
  /** Where the race stopped it (its scores are the rung's), or null: it trained to the budget or never trained. */
  stopped: StoppedAt | null;
  /** What the screen said of it before training (absent: no screen, as for the baselines or a check that failed). */
  screen?: ScreenNote;
  /** It paid the same as this candidate on the whole bank and was not trained: its scores are that one's. */
  twinOf?: string;
}

/** The screen, as a candidate's record, the scoreboard and the card carry it. */
export interface ScreenNote {
  auc: number | null;
  /** It prefers a failure of the bank (a finding that fails it). */
  fails: boolean;
  /** screenLine(): "AUC 0.41 ...; pays more for hovering to the time limit than for landing". */
  line: string;
}

/** The rung of a race at which a candidate stopped. */
export interface StoppedAt {
  /** 1-based rung, of `rungs`. */
  rung: number;
  rungs: number;
  /** Steps per seed-run at that rung, and their share of the budget. */
  steps: number;
  share: number;
}

/** One generation's race (successive halving): each rung's standings, best first. */
export interface RaceRecord {
  generation: number;
  eta: number;
  /** Steps per seed-run at each rung; the last is the budget. */
  schedule: number[];
  rungs: Array<{
    /** 1-based. */
    rung: number;
    steps: number;
    standings: Array<{
      candidateId: string; success: number; progress?: number | null; meanSuccessSteps: number | null; meanReturn: number | null; trainSuccessArea: number | null; promoted: boolean;
    }>;
  }>;
}

export interface SummaryRecord {
  generation: number;
  scoreboard: Array<{
    candidateId: string; name: string; idea: string; success: number; progress?: number | null; meanSuccessSteps: number | null; meanReturn: number | null; outcome: Outcome; reason: string;
    /** Where the race stopped it, if it did: its scores are that rung's. */
    stopped?: StoppedAt | null;
    /** What the screen said of it before training, in words. */
    screen?: string;
  }>;
  bestOfGeneration: BestPointer | null;
  bestSoFar: BestPointer | null;
  reflection: string;
}

/** A pause for a person's feedback after a generation, and the answer once given. */
export interface FeedbackRecord {
  generation: number;
  /** The task token to send back (AWS), or "local" (the local runtime waits on this record). */
  token: string;
  askedAt: string;
  /** When "Wait for feedback" times out and the search goes on by itself. */
  deadline: string;
  /** The interim card of the search so far, in the bucket. */
  cardKey: string;
  answer?: { action: 'continue' | 'stop'; text?: string; answeredAt: string };
}

/**
 * One reply of the model as billed, recorded before it is checked (functions/propose/ledger.ts):
 * 'reserved' while the request is out (its worst case held against the budget; it stays so if the
 * reply was cut off or the function died), 'billed' with the reply's usage once it arrived,
 * 'released' when the API refused the request before answering (nothing billed).
 */
export interface BillRecord {
  generation: number;
  kind: AnswerKind;
  step: number;
  state: 'reserved' | 'billed' | 'released';
  model: string;
  /** The reply's usage once billed; null before. */
  usage: TokenUsage | null;
  /** What it cost (billed), or the most it may have cost (reserved); null when the model has no price. */
  costUsd: number | null;
  /** The stored reply in the bucket (billed), for a retry to replay instead of paying again. */
  replyKey: string;
  /** The prompt the reply answers: a replay needs the same question. */
  promptHash: string;
  createdAt: string;
}

/** The two requests a generation may make of the proposer. */
export type AnswerKind = 'proposal' | 'repair';

/** A stored answer with the request it answers. */
export type StoredAnswerRecord = ProposalRecord & { kind: AnswerKind };

/**
 * What the proposer cost: the requests answered (or failed) and every billed reply's tokens and
 * cost, a reply cut off counted at its worst case (null cost when any price is unknown).
 */
export function proposerUsage(answers: StoredAnswerRecord[], bills: BillRecord[]): {
  requests: number; repairRequests: number; inputTokens: number; outputTokens: number; thinkingTokens: number; costUsd: number | null;
} {
  const counted = bills.filter((b) => b.state !== 'released');
  return {
    requests: answers.length,
    repairRequests: answers.filter((p) => p.kind === 'repair').length,
    inputTokens: counted.reduce((n, b) => n + (b.usage?.inputTokens ?? 0), 0),
    outputTokens: counted.reduce((n, b) => n + (b.usage?.outputTokens ?? 0), 0),
    thinkingTokens: counted.reduce((n, b) => n + (b.usage?.thinkingTokens ?? 0), 0),
    costUsd: counted.some((b) => b.costUsd === null) ? null : counted.reduce((n, b) => n + (b.costUsd ?? 0), 0),
  };
}
