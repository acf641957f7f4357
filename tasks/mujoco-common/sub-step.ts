/**
 * What a task's observation and reward read of MuJoCo's last sub-step of an environment step, not
 * of the qpos and qvel that end it: body and site positions (mj_step computes them before it
 * integrates, so after a step they are those of its last sub-step), constraint and contact forces
 * (Ant's cfrc_ext). Gymnasium reads them as MuJoCo left them; giving our environment the recorded
 * qpos and qvel cannot reproduce them (Reacher's fingertip differs by 1.2e-3 m), so the logic
 * check leaves them out, and this check simulates each step from the recorded state before it
 * (warm start included) and compares them within the task's tolerance.
 */
import type { ConformanceCheck } from '../contract.ts';
import type { MujocoEnv } from './mujoco-env.ts';
import type { MujocoEpisode } from './recording.ts';

export interface SubStepSpec {
  /** Observation entries read from the last sub-step. */
  obs: readonly number[];
  /** Gymnasium's info names read from it (or not computable exactly otherwise), each with the largest deviation allowed; the reward goes with them. */
  terms: Readonly<Record<string, number>>;
  /** The largest deviation allowed of those observation entries (float32) and of the reward. */
  tolerance: { obs: number; reward: number };
  /**
   * 'max': the largest deviation of any of those entries on any step. 'mean': their mean absolute
   * deviation over entries and steps, where single entries jump (a contact that comes or goes
   * one sub-step apart moves a clipped contact force by up to 2). @default 'max'
   */
  obsMeasure?: 'max' | 'mean';
  /**
   * The same for the terms and the reward: 'mean' where a contact one sub-step apart moves them on
   * a few steps by more than a broken port moves them on every step (Ant's forward speed). @default 'max'
   */
  termsMeasure?: 'max' | 'mean';
  /** Whether the endings read it (InvertedDoublePendulum's tip height): then they are compared here, exactly, not in the logic check. */
  endings?: boolean;
  /**
   * Whether each step after an episode's first goes on from what our previous simulated step left
   * beside the state (Ant's torso body position at the last sub-step, its next step's "before"), as
   * Gymnasium's goes on from what MuJoCo left, instead of recomputing it from the recorded qpos:
   * right where the physics agrees to rounding (the same MuJoCo version). @default false
   */
  continues?: boolean;
}

const fmt = (x: number): string => x.toExponential(2);

/** The worst deviations of what reads the last sub-step, over the episodes (each step simulated from the recorded state before it). */
export interface SubStepDeviations {
  /** Of the observation entries: their largest, or their mean absolute deviation (spec.obsMeasure). */
  obs: number;
  /** Their largest, whatever the measure. */
  obsMax: number;
  /** Of each term and of the reward: their largest, or their mean absolute deviation over the steps (spec.termsMeasure). */
  terms: Record<string, number>;
  reward: number;
  /** Their largest, whatever the measure. */
  termsMax: Record<string, number>;
  rewardMax: number;
  /** Steps whose terminated or truncated differ (counted where spec.endings). */
  flags: number;
}

export function subStepDeviations(make: (seed: number) => MujocoEnv, spec: SubStepSpec, episodes: MujocoEpisode[]): SubStepDeviations {
  const zeros = (): Record<string, number> => Object.fromEntries(Object.keys(spec.terms).map((name) => [name, 0]));
  const [termsMax, termsSum] = [zeros(), zeros()];
  let [obsMax, obsSum, obsCount, rewardMax, rewardSum, steps, flags] = [0, 0, 0, 0, 0, 0, 0];
  const env = make(0);
  try {
    env.autoReset = false;
    for (const episode of episodes) {
      // A fresh episode for the time limit's count.
      env.setRecordedState(0, episode.initial_qpos, episode.initial_qvel);
      env.restartFromState(0);
      episode.steps.forEach((step, t) => {
        const before = t === 0
          ? { qpos: episode.initial_qpos, qvel: episode.initial_qvel, qacc_warmstart: episode.initial_qacc_warmstart }
          : episode.steps[t - 1];
        if (spec.continues === true && t > 0) env.continueFromRecordedState(0, before.qpos, before.qvel, before.qacc_warmstart);
        else env.setRecordedState(0, before.qpos, before.qvel, before.qacc_warmstart);
        env.step(step.action);
        for (const k of spec.obs) {
          const deviation = Math.abs(env.finalObs[k] - Math.fround(step.obs[k]));
          [obsMax, obsSum, obsCount] = [Math.max(obsMax, deviation), obsSum + deviation, obsCount + 1];
        }
        for (const name of Object.keys(termsMax)) {
          const deviation = Math.abs(env.info[0][name] - (step.info?.[name] ?? Number.NaN));
          [termsMax[name], termsSum[name]] = [Math.max(termsMax[name], deviation), termsSum[name] + deviation];
        }
        const deviation = Math.abs(env.reward[0] - step.reward);
        [rewardMax, rewardSum, steps] = [Math.max(rewardMax, deviation), rewardSum + deviation, steps + 1];
        if (spec.endings && ((env.terminated[0] === 1) !== step.terminated || (env.truncated[0] === 1) !== step.truncated)) flags += 1;
      });
    }
  } finally {
    env.dispose();
  }
  const obs = spec.obsMeasure === 'mean' ? obsSum / Math.max(1, obsCount) : obsMax;
  const mean = spec.termsMeasure === 'mean';
  const terms = mean ? Object.fromEntries(Object.entries(termsSum).map(([name, sum]) => [name, sum / Math.max(1, steps)])) : termsMax;
  const reward = mean ? rewardSum / Math.max(1, steps) : rewardMax;
  return { obs, obsMax, terms, reward, termsMax, rewardMax, flags };
}

export function subStepCheck(make: (seed: number) => MujocoEnv, spec: SubStepSpec, episodes: MujocoEpisode[]): ConformanceCheck {
  const worst = subStepDeviations(make, spec, episodes);
  const termsOk = Object.entries(worst.terms).every(([name, value]) => value <= spec.terms[name]);
  const ok = worst.obs <= spec.tolerance.obs && worst.reward <= spec.tolerance.reward && termsOk && worst.flags === 0;
  const measured = spec.obsMeasure === 'mean' ? `mean deviation ${fmt(worst.obs)} (largest ${fmt(worst.obsMax)})` : fmt(worst.obs);
  const entries = spec.obs.length === 0 ? '' : `observation ${describeEntries(spec.obs)}: ${measured}, tolerance ${spec.tolerance.obs}; `;
  const mean = spec.termsMeasure === 'mean';
  const named = Object.entries(worst.terms).map(([name, value]) => `${name} ${mean ? `mean deviation ${fmt(value)} (largest ${fmt(worst.termsMax[name])})` : fmt(value)} ` +
    `(tolerance ${spec.terms[name]})`).join(', ');
  const reward = mean ? `mean deviation ${fmt(worst.reward)} (largest ${fmt(worst.rewardMax)})` : fmt(worst.reward);
  return {
    check: 'last sub-step', ok,
    detail: `each step simulated from the recorded qpos, qvel and warm start${spec.continues === true ? ' (and from what our previous step left beside them)' : ''}, what reads MuJoCo's last sub-step: ${entries}${named}; ` +
      `reward ${reward} (tolerance ${spec.tolerance.reward})${spec.endings ? `; terminated/truncated differ on ${worst.flags} steps` : ''}`,
  };
}

/** "8-9" or "27-104" or "8": the entries, as ranges. */
export function describeEntries(entries: readonly number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    let j = i;
    while (j + 1 < entries.length && entries[j + 1] === entries[j] + 1) j++;
    ranges.push(i === j ? `${entries[i]}` : `${entries[i]}-${entries[j]}`);
    i = j;
  }
  return ranges.join(', ');
}
