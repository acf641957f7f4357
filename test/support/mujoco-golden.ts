/**
 * The golden episodes of Gymnasium's own MuJoCo v5 tasks (shared/golden/mujoco/) as the task tests
 * read them: parsed in the golden format, as the success test's Episode, as the card's
 * EpisodeRecord, and a reward file's computeReward run directly (the tests trust the baselines).
 */
import { readFileSync } from 'node:fs';
import { recordingText } from '../../tasks/conformance.ts';
import type { Episode, EpisodeRecord, Task } from '../../tasks/contract.ts';
import type { MujocoEnv } from '../../tasks/mujoco-common/mujoco-env.ts';
import { mujocoEpisode, type MujocoEpisode } from '../../tasks/mujoco-common/recording.ts';

export type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];

/** A trusted reward file's computeReward (the baselines only: untrusted code runs in the sandbox). */
export const rewardOf = (code: string): RewardFn => new Function(`${code}\nreturn computeReward;`)() as RewardFn;

export function goldenEpisodes(id: string): MujocoEpisode[] {
  const file = new URL(`../../../shared/golden/mujoco/${id}.json.gz`, import.meta.url);
  const json = JSON.parse(recordingText(readFileSync(file))) as { episodes: unknown[] };
  return json.episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
}

/** A recorded episode as the success test sees it; with a task, its recorded state too, from the recorded qpos and qvel. */
export function episodeOf(e: MujocoEpisode, task?: Task): Episode {
  const last = e.steps[e.steps.length - 1];
  const recorded = task ? recordedOf(task, e) : new Float64Array(0);
  return {
    observations: Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat()),
    obsSize: e.initial_obs.length, recorded, recordSize: task?.recordSize ?? 0,
    length: e.steps.length, return: e.steps.reduce((sum, s) => sum + s.reward, 0),
    terminated: last.terminated, truncated: last.truncated,
  };
}

/**
 * The task's recorded state along a recorded episode: each recorded step given to the task's own
 * environment as its next state (as conformance's logic check does), and what it records read off.
 */
export function recordedOf(task: Task, e: MujocoEpisode): Float64Array {
  if (task.recordSize === 0) return new Float64Array(0);
  const env = task.gymnasiumEnv(1, 0) as unknown as MujocoEnv;
  try {
    env.autoReset = false;
    env.setRecordedState(0, e.initial_qpos, e.initial_qvel);
    env.restartFromState(0);
    const values = [...env.record];
    for (const step of e.steps) {
      env.giveNextState(0, step.qpos, step.qvel);
      env.step(step.action);
      values.push(...env.finalRecord);
    }
    return Float64Array.from(values);
  } finally {
    env.dispose();
  }
}

export function recordOf(e: MujocoEpisode): EpisodeRecord {
  const last = e.steps[e.steps.length - 1];
  return {
    observations: [e.initial_obs, ...e.steps.map((s) => s.obs)], actions: e.steps.map((s) => s.action), rewards: e.steps.map((s) => s.reward),
    success: false, terminated: last.terminated, truncated: last.truncated,
  };
}

/** The environment's reward file against Gymnasium's reward on every golden step: the largest step and episode differences. */
export function rewardFileGap(reward: RewardFn, episodes: MujocoEpisode[]): { step: number; episode: number; episodeShare: number } {
  const gap = { step: 0, episode: 0, episodeShare: 0 };
  for (const e of episodes) {
    let [ours, theirs] = [0, 0];
    e.steps.forEach((s, t) => {
      const [r] = reward(t === 0 ? e.initial_obs : e.steps[t - 1].obs, s.action, s.obs, s.terminated);
      gap.step = Math.max(gap.step, Math.abs(r - s.reward));
      [ours, theirs] = [ours + r, theirs + s.reward];
    });
    gap.episode = Math.max(gap.episode, Math.abs(ours - theirs));
    gap.episodeShare = Math.max(gap.episodeShare, Math.abs(ours - theirs) / Math.max(1, Math.abs(theirs)));
  }
  return gap;
}

/** The reward file's terms against Gymnasium's info on every golden step: the largest control-cost gap, and steps whose survive term differs. */
export function rewardFileTerms(reward: RewardFn, episodes: MujocoEpisode[]): { ctrl: number; surviveDiffers: number } {
  const found = { ctrl: 0, surviveDiffers: 0 };
  for (const e of episodes) {
    e.steps.forEach((s, t) => {
      const [, terms] = reward(t === 0 ? e.initial_obs : e.steps[t - 1].obs, s.action, s.obs, s.terminated);
      found.ctrl = Math.max(found.ctrl, Math.abs(terms.ctrl - (s.info?.reward_ctrl ?? Number.NaN)));
      if (terms.survive !== s.info?.reward_survive) found.surviveDiffers += 1;
    });
  }
  return found;
}

/** Whether a reward gives a finite number on every golden transition. */
export function finiteOnEveryStep(reward: RewardFn, episodes: MujocoEpisode[]): boolean {
  return episodes.every((e) => e.steps.every((s, t) => Number.isFinite(reward(t === 0 ? e.initial_obs : e.steps[t - 1].obs, s.action, s.obs, s.terminated)[0])));
}

/** The episode with its recorded x (entry `xAt`) moved evenly so that it ends `metres` beyond its start. */
export function withMetres(episode: Episode, metres: number, xAt = 0): Episode {
  const recorded = Float64Array.from(episode.recorded);
  const r = episode.recordSize;
  const x0 = recorded[xAt];
  for (let t = 0; t <= episode.length; t++) recorded[t * r + xAt] = x0 + (metres * t) / episode.length;
  return { ...episode, recorded };
}

/** Where the recorded qpos says the torso ended along x, less where it started: the metres a recorded episode moved. */
export function recordedMetres(e: MujocoEpisode): number {
  return e.steps[e.steps.length - 1].qpos[0] - e.initial_qpos[0];
}
