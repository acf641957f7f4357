/** The estimate in words: what `--estimate` prints, and what the card and `eureka show` set beside what was spent. */
import { LAMBDA_VCPU_SLOWDOWN, MODEL_STREAM_TOKENS_PER_SECOND } from '../../../infra/config.ts';
import { LOCAL_CONCURRENT_SPEED, type SearchEstimate } from './estimate.ts';

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const usd = (x: number) => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;

/** "3 min 02 s", "52 s", "1 h 4 min"; "—" for what is no duration. */
export function durationOf(seconds: number): string {
  const s = Math.round(seconds);
  if (!Number.isFinite(s) || s < 0) return '—';
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${s} s`;
}

export function estimateLines(e: SearchEstimate, proposer: string, model: string): string[] {
  const r = e.seedRuns;
  const share = e.steps.fullBudget > 0 ? Math.round((100 * e.steps.raced) / e.steps.fullBudget) : 100;
  const raced = e.steps.raceSurvival === null
    ? 'no racing'
    : `about ${int(e.steps.raced)} with racing (${share}%, at the task's recorded race survival ${e.steps.raceSurvival})`;
  const lines = [
    `seed-runs: ${int(r.total)} (${int(r.baselines)} of the baselines, ${int(r.candidates)} of candidates at most, ${int(r.fresh)} on fresh seeds), ${int(e.invocations)} TrainSeed invocations`,
    `environment steps: ${int(e.steps.fullBudget)} without racing (exact when every candidate passes its check); ${raced}`,
  ];
  if (e.local) lines.push(`this machine, ${e.local.cores} seed-runs at once: about ${durationOf(e.local.seconds)}, ${int(e.local.gbSeconds)} GB-seconds of TrainSeed (the task's recorded ${int(e.stepsPerSecond)} steps a second a core${e.local.cores > 1 ? `, ×${LOCAL_CONCURRENT_SPEED} with every core busy` : ''})`);
  const awsUsd = e.aws.usd === null ? `no Lambda price for ${e.aws.region}` : `${usd(e.aws.usd)} in ${e.aws.region}`;
  lines.push(`AWS, ${e.aws.concurrency} seed-runs at once (a Lambda vCPU taken as ${LAMBDA_VCPU_SLOWDOWN}× slower than a core here): about ${durationOf(e.aws.seconds)} of seed-runs, ${int(e.aws.gbSeconds)} GB-seconds, ${awsUsd}`);
  lines.push(modelLine(e, proposer, model));
  return lines;
}

function modelLine(e: SearchEstimate, proposer: string, model: string): string {
  const m = e.model;
  if (m === null) return 'model: not estimated';
  if (proposer !== 'anthropic' && proposer !== 'bedrock') return `model: ${proposer}, nothing billed (${m.requests} requests at most)`;
  const cost = m.usd === null ? `no price for ${model}` : usd(m.usd);
  const minutes = Math.round(m.outputTokens / MODEL_STREAM_TOKENS_PER_SECOND / 60);
  const ceiling = m.ceilingUsd === null
    ? 'no ceiling'
    : m.generationsCovered === null
      ? `the ceiling ${usd(m.ceilingUsd)} cannot be checked`
      : m.usd !== null && m.usd <= m.ceilingUsd
        ? `the ceiling ${usd(m.ceilingUsd)} holds`
        : `the ceiling ${usd(m.ceilingUsd)} covers ${m.generationsCovered} generation${m.generationsCovered === 1 ? '' : 's'} at worst`;
  return `model ${model}, worst case: ${m.requests} requests, ${int(m.inputTokens)} input and ${int(m.outputTokens)} output tokens, ${cost} (up to ${minutes} min of answers); ${ceiling}`;
}
