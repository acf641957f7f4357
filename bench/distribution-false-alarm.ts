/**
 * How often the distribution check (tasks/mujoco-common/distribution.ts) fails a port that
 * conforms: the recordings resampled against themselves. For each task checked by distribution,
 * every recorded episode of each policy (the golden file, the tuning and the held-out fixtures) is
 * pooled; each draw splits each policy's pool at random into a stand-in for "ours" and a stand-in
 * for "recorded", and runs the check's rank tests at its level (Bonferroni over all its tests).
 * Both halves come from Gymnasium, so every failure is a false alarm. Beside it, for comparison,
 * the check it replaced: the z-score of the means at 3 standard errors. Then the other side, which
 * sets the smallest sample the check judges (MIN_RECORDED): how often one rank test at the check's
 * level (0.01 over 6 tests) tells apart 40 normal values from n shifted by 1 or 2 standard deviations.
 *
 * `npx tsx bench/distribution-false-alarm.ts [--draws 400] [--recorded 20]` prints one line a task
 * and one JSON line.
 */
import { readFileSync } from 'node:fs';
import { Random } from '../core/random.ts';
import { recordingText } from '../tasks/conformance.ts';
import { recordedSample, type Sample } from '../tasks/mujoco-common/distribution.ts';
import { rankSumPValue } from '../tasks/mujoco-common/rank-test.ts';
import { mujocoEpisode, policyName, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { benchArgs } from './args.ts';

const TASKS = ['Hopper-v5', 'Walker2d-v5', 'Ant-v5'];
const FALSE_ALARM = 0.01;
const QUANTITIES = ['length', 'return', 'terminated'] as const;

const { values: args } = benchArgs(import.meta.url, { options: { draws: { type: 'string', default: '400' }, recorded: { type: 'string', default: '20' } } });
const DRAWS = Number(args.draws);
const RECORDED = Number(args.recorded);

const files = (id: string): string[] => [
  new URL(`../../shared/golden/mujoco/${id}.json.gz`, import.meta.url).pathname,
  ...['tuning', 'held-out'].map((part) => new URL(`../test/fixtures/recordings/mujoco/${id}.${part}.json.gz`, import.meta.url).pathname),
];

/** Each policy's pooled sample, returns over the shortest recorded cap of any of its episodes. */
function pools(id: string): Map<string, Sample> {
  const byPolicy = new Map<string, MujocoEpisode[]>();
  for (const file of files(id)) {
    const { episodes } = JSON.parse(recordingText(readFileSync(file))) as { episodes: unknown[] };
    for (const raw of episodes) {
      const e = mujocoEpisode(raw as MujocoEpisode);
      byPolicy.set(policyName(e), [...(byPolicy.get(policyName(e)) ?? []), e]);
    }
  }
  const samples = new Map<string, Sample>();
  for (const [name, recorded] of byPolicy) {
    const cap = Math.min(...recorded.map((e) => (Number(e.recorded_steps ?? e.steps.length) < Number(e.episode_length ?? e.steps.length) ? e.steps.length : Infinity)));
    samples.set(name, recordedSample(recorded, cap));
  }
  return samples;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]): number => xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / Math.max(1, xs.length - 1);
/** The replaced check's statistic. */
function zScore(a: number[], b: number[]): number {
  const difference = Math.abs(mean(a) - mean(b));
  const se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
  return se > 0 ? difference / se : difference === 0 ? 0 : Infinity;
}

function split(sample: Sample, recorded: number, rng: Random): [Sample, Sample] {
  const order = Array.from(sample.length, (_, i) => i);
  for (let k = order.length - 1; k > 0; k--) {
    const j = rng.int(k + 1);
    [order[k], order[j]] = [order[j], order[k]];
  }
  const pick = (idx: number[]): Sample => ({ length: idx.map((i) => sample.length[i]), return: idx.map((i) => sample.return[i]), terminated: idx.map((i) => sample.terminated[i]) });
  return [pick(order.slice(recorded)), pick(order.slice(0, recorded))];
}

const results: Array<Record<string, unknown>> = [];
for (const id of TASKS) {
  const samples = pools(id);
  const level = FALSE_ALARM / (QUANTITIES.length * samples.size);
  const rng = new Random(4242);
  let [rankAlarms, zAlarms, zAlarmsOfThree] = [0, 0, 0];
  for (let draw = 0; draw < DRAWS; draw++) {
    let [rank, z, z3] = [false, false, false];
    for (const sample of samples.values()) {
      const [ours, theirs] = split(sample, RECORDED, rng);
      rank ||= QUANTITIES.some((q) => rankSumPValue(ours[q], theirs[q]) < level);
      z ||= QUANTITIES.some((q) => zScore(ours[q], theirs[q]) > 3);
      const [oursOfThree, three] = split(sample, 3, rng);
      z3 ||= QUANTITIES.some((q) => zScore(oursOfThree[q], three[q]) > 3);
    }
    rankAlarms += Number(rank);
    zAlarms += Number(z);
    zAlarmsOfThree += Number(z3);
  }
  const sizes = [...samples].map(([name, s]) => `${name} ${s.length.length}`).join(', ');
  const row = { task: id, pooled: sizes, recorded: RECORDED, draws: DRAWS, rankFalseAlarm: rankAlarms / DRAWS, zFalseAlarm: zAlarms / DRAWS, zFalseAlarmOfThree: zAlarmsOfThree / DRAWS };
  results.push(row);
  console.log(`${id} (pooled: ${sizes}): ${RECORDED} "recorded" against the rest, ${DRAWS} draws: rank tests ${rankAlarms} false alarms ` +
    `(${(100 * row.rankFalseAlarm).toFixed(1)}%); z-score of the means at 3: ${zAlarms} (${(100 * row.zFalseAlarm).toFixed(1)}%), ` +
    `on 3 "recorded": ${zAlarmsOfThree} (${(100 * row.zFalseAlarmOfThree).toFixed(1)}%)`);
}

const power: Array<Record<string, number>> = [];
const rng = new Random(7);
const normals = (n: number, shift: number): number[] => Array.from({ length: n }, () => rng.normal() + shift);
for (const n of [3, 5, 10, 20]) {
  for (const shift of [1, 2]) {
    let found = 0;
    for (let draw = 0; draw < DRAWS; draw++) found += Number(rankSumPValue(normals(40, 0), normals(n, shift)) < FALSE_ALARM / 6);
    power.push({ recorded: n, shift, power: found / DRAWS });
  }
  const row = power.slice(-2);
  console.log(`power, ${n} recorded against 40: a shift of 1 SD found in ${(100 * row[0].power).toFixed(0)}% of draws, of 2 SD in ${(100 * row[1].power).toFixed(0)}%`);
}
console.log(JSON.stringify({ falseAlarmLevel: FALSE_ALARM, results, power }));
