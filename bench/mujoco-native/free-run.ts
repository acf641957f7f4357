/**
 * How far our environment's free run follows Gymnasium's on native MuJoCo 3.14.0: each recorded
 * episode replayed from its recorded reset with its recorded actions and nothing else (no state
 * set again), the step at which the next qpos or qvel first differs by more than 1e-6, and whether
 * the episode ends at the same step the same way. The same MuJoCo version compiled two ways (native
 * x86-64 with AVX, WebAssembly) rounds a few operations apart; where the motion is chaotic
 * (contacts, a random walk of torques) that grows, which is why conformance compares each step from
 * the recorded state instead (tasks/mujoco-common/conformance.ts).
 *
 *   npx tsx bench/mujoco-native/free-run.ts --task Hopper-v5 FILE.json.gz   (whole episodes: record-gymnasium.py without --cap)
 */
import { readFileSync } from 'node:fs';
import { recordingText } from '../../tasks/conformance.ts';
import { prepareTask } from '../../tasks/registry.ts';
import type { MujocoEnv } from '../../tasks/mujoco-common/mujoco-env.ts';
import { mujocoEpisode, policyName, type MujocoEpisode } from '../../tasks/mujoco-common/recording.ts';
import { benchArgs } from '../args.ts';

const PARTED = 1e-6;
const { values: args, positionals: files } = benchArgs(import.meta.url, { options: { task: { type: 'string' } }, allowPositionals: true });
const task = await prepareTask(args.task ?? 'Hopper-v5');
const episodes: MujocoEpisode[] = files.flatMap((f) => (JSON.parse(recordingText(readFileSync(f))) as { episodes: unknown[] }).episodes.map((e) => mujocoEpisode(e as MujocoEpisode)));

const largest = (a: ArrayLike<number>, b: readonly number[]): number => {
  let d = 0;
  for (let k = 0; k < a.length; k++) d = Math.max(d, Math.abs(a[k] - b[k]));
  return d;
};

const byPolicy = new Map<string, { episodes: number; parted: number[]; endApart: number }>();
const env = task.gymnasiumEnv(1, 0) as MujocoEnv;
try {
  env.autoReset = false;
  for (const episode of episodes) {
    env.setRecordedState(0, episode.initial_qpos, episode.initial_qvel, episode.initial_qacc_warmstart);
    env.restartFromState(0);
    let [parted, length] = [0, 0];
    for (const step of episode.steps) {
      env.step(step.action);
      length += 1;
      if (parted === 0 && Math.max(largest(env.qpos(0), step.qpos), largest(env.qvel(0), step.qvel)) > PARTED) parted = length;
      if (env.terminated[0] === 1 || env.truncated[0] === 1) break;
    }
    const last = episode.steps[episode.steps.length - 1];
    const endsAlike = length === episode.steps.length && (env.terminated[0] === 1) === last.terminated && (env.truncated[0] === 1) === last.truncated;
    const row = byPolicy.get(policyName(episode)) ?? { episodes: 0, parted: [], endApart: 0 };
    row.episodes += 1;
    if (parted > 0) row.parted.push(parted);
    if (!endsAlike) row.endApart += 1;
    byPolicy.set(policyName(episode), row);
  }
} finally {
  env.dispose();
}
for (const [policy, row] of byPolicy) {
  const range = row.parted.length === 0 ? '' : ` (at steps ${Math.min(...row.parted)}-${Math.max(...row.parted)})`;
  process.stdout.write(`${task.id} ${policy}: ${row.episodes} episodes; parted by more than ${PARTED} in ${row.parted.length}${range}; ended apart in ${row.endApart}\n`);
}
