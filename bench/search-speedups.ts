/**
 * What would make a default search on AWS shorter or cheaper, from a measured seed-run profile
 * (`bench/engine-share.ts --json`, its output saved to a file), nothing of it built: the estimate
 * `eureka start --input '{"task":ID}' --estimate` prints (anthropic proposer, us-east-1, Arm), then
 * the same estimate with each seed-run's time changed, as the profile's shares give it:
 *
 * - a native engine: MuJoCo's share of the seed-run runs at native's speed, its time times
 *   `--native-ratio` (our environment's steps a second over native's on the same engine version:
 *   docs/mujoco.md, "Speed");
 * - n vCPUs a seed-run (TrainSeed at n x 1,769 MB, 6 at Lambda's largest 10,240 MB) stepping n
 *   environment copies at once: the environment's part (MuJoCo, our environment's code, the reward
 *   sandbox) over n, the rest (the trainer, the garbage collector, the start) as it is (Amdahl's
 *   law, a bound: no copy waits for another here); GB-seconds at that memory;
 * - both; the race at the survival given (`--survival`, for a task that recorded none); half the
 *   steps a seed-run.
 *
 *   npx tsx bench/search-speedups.ts --profile FILE --native-ratio 0.50 [--survival 0.6]
 */
import { readFileSync } from 'node:fs';
import { FUNCTION_CAPS, LAMBDA_ARCHITECTURE } from '../infra/config.ts';
import { estimateSearch } from '../functions/shared/cost/estimate.ts';
import { lambdaPriceOf } from '../functions/shared/cost/lambda-pricing.ts';
import type { SearchSettings } from '../functions/shared/search/contracts.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { argError, benchArgs } from './args.ts';

const { values: args } = benchArgs(import.meta.url, { options: { profile: { type: 'string' }, 'native-ratio': { type: 'string' }, survival: { type: 'string' } } });
const profileFile = args.profile;
const ratio = Number(args['native-ratio']);
if (profileFile === undefined || !(ratio > 0 && ratio <= 1)) argError(import.meta.url, 'needs --profile FILE --native-ratio R (0 < R <= 1)');
const run = JSON.parse(readFileSync(profileFile, 'utf8').trim().split('\n').filter((l) => l.startsWith('{')).pop() ?? '{}') as { task: string; shares: Record<string, number> };
const task = getTask(run.task);
const share = (k: string): number => run.shares[k] ?? 0;
const engine = share('MuJoCo');
const environment = engine + share('environment') + share('reward sandbox');

const AWS = { cores: null, region: 'us-east-1', firstPromptChars: null };
const price = lambdaPriceOf(AWS.region)!;
const config = parseSearchInput({ task: task.id }, { proposer: 'anthropic', costCeilingUsd: 10, local: false }) as SearchSettings;
const withBudget = (budget: Partial<Task['budget']>): Task => ({ ...task, budget: { ...task.budget, ...budget } });
const sps = task.budget.stepsPerSecond!;
const memoryMb = FUNCTION_CAPS.trainSeed.memoryMb;
const minutes = (s: number) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;

/** The default search with each seed-run taking `time` of its measured time, at `vcpus` vCPUs' memory. */
function show(name: string, time: number, vcpus = 1, budget: Partial<Task['budget']> = {}, input: Partial<SearchSettings> = {}): void {
  const e = estimateSearch({ ...config, ...input }, withBudget({ stepsPerSecond: sps / time, ...budget }), AWS);
  const memory = vcpus === 1 ? memoryMb : vcpus >= 6 ? 10_240 : vcpus * memoryMb;
  const gbSeconds = (e.aws.gbSeconds * memory) / memoryMb;
  const usd = (arch: typeof LAMBDA_ARCHITECTURE) => gbSeconds * price.gbSecond[arch] + e.invocations * price.request;
  console.log(`  ${name}: ${minutes(e.aws.seconds)} of seed-runs at ${e.aws.concurrency} at once, ${Math.round(gbSeconds).toLocaleString('en-US')} GB-seconds, `
    + `$${usd('arm64').toFixed(2)} on Arm ($${usd('x86_64').toFixed(2)} on x86), ${e.invocations} invocations, seed-run time x${time.toFixed(3)}, ${memory} MB`);
}

console.log(`${task.id}, default search (G=${config.generations} K=${config.candidates} S=${config.seeds}), recorded ${sps} steps a second, race survival ${task.budget.raceSurvival ?? 'none (1)'}`);
console.log(`  profile: MuJoCo ${(100 * engine).toFixed(1)}%, the environment's part (MuJoCo, environment, reward sandbox) ${(100 * environment).toFixed(1)}%; native ratio ${ratio}`);
const native = 1 - engine * (1 - ratio);
show('as estimated', 1);
show('native engine', native);
for (const n of [2, 4, 6]) show(`${n} vCPUs, ${n} copies`, 1 - environment + environment / n, n);
for (const n of [2, 4, 6]) show(`native engine, ${n} vCPUs, ${n} copies`, native - (environment - engine * (1 - ratio)) * (1 - 1 / n), n);
const survival = args.survival;
if (survival !== undefined) show(`race survival ${survival}`, 1, 1, { raceSurvival: Number(survival) });
show('half the steps', 1, 1, {}, { steps: config.steps / 2 });
