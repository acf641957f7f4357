/**
 * The logic check of a MuJoCo task: each recorded step given to our environment as its next state
 * (no physics), and its observation, reward, reward terms (v5's info names) and endings compared
 * with Gymnasium's, exactly; what reads MuJoCo's last sub-step (sub-step.ts) left out. A failure
 * names what deviated most, with the seed and step, so that a reader can go straight to it.
 *
 * A numpy norm's last bit is the recording machine's BLAS's (numpy-norm.ts): where a file is not
 * exact under the default rounding, the other is tried, and the check is exact under the one that
 * fits the whole file (it says so), or reports the pass that came nearer.
 */
import type { ConformanceCheck } from '../contract.ts';
import type { MujocoEnv } from './mujoco-env.ts';
import { DOT_ROUNDINGS, type DotRounding } from './numpy-norm.ts';
import type { MujocoEpisode } from './recording.ts';
import { describeEntries, type SubStepSpec } from './sub-step.ts';

export interface LogicSpec {
  make: (seed: number) => MujocoEnv;
  subStep?: SubStepSpec;
}

/** The largest deviation of one kind, and where it was. */
class Worst {
  value = 0;
  where = '';

  see(deviation: number, what: () => string): void {
    // NaN (a term Gymnasium's info lacks) counts as the worst possible.
    const d = Number.isNaN(deviation) ? Infinity : deviation;
    if (d > this.value) [this.value, this.where] = [d, what()];
  }

  describe(): string {
    return `${this.value.toExponential(2)}${this.value > 0 ? ` (${this.where})` : ''}`;
  }
}

interface Pass {
  obs: Worst;
  reward: Worst;
  terms: Worst;
  flags: number;
  firstFlag: string;
  ok: boolean;
}

export function logicCheck(spec: LogicSpec, episodes: MujocoEpisode[]): ConformanceCheck {
  let best: Pass | undefined;
  let rounding: DotRounding = DOT_ROUNDINGS[0];
  for (const tried of DOT_ROUNDINGS) {
    const pass = logicPass(spec, episodes, tried);
    if (best === undefined || pass.ok || worstOf(pass) < worstOf(best)) [best, rounding] = [pass, tried];
    if (pass.ok) break;
  }
  const { obs, reward, terms, flags, firstFlag, ok } = best!;
  const left = spec.subStep ? leftOut(spec.subStep) : '';
  const blas = rounding === 'fused' ? '; numpy\'s norms as a BLAS that fuses the dot\'s multiply-add rounds them (the recording machine\'s)' : '';
  return {
    check: 'logic', ok,
    detail: `from each recorded state, exactly: largest deviation of the observation (float32) ${obs.describe()}, ` +
      `reward ${reward.describe()}, reward terms ${terms.describe()}; terminated/truncated differ on ${flags} steps${firstFlag}${left}${blas}`,
  };
}

const worstOf = (pass: Pass): number => Math.max(pass.obs.value, pass.reward.value, pass.terms.value, pass.flags);

function logicPass(spec: LogicSpec, episodes: MujocoEpisode[], rounding: DotRounding): Pass {
  const [obs, reward, terms] = [new Worst(), new Worst(), new Worst()];
  const skipped = new Set(spec.subStep?.obs ?? []);
  const subTerms = spec.subStep?.terms ?? {};
  const rewardExact = Object.keys(subTerms).length === 0;
  const endingsExact = spec.subStep?.endings !== true;
  let [flags, firstFlag] = [0, ''];
  const env = spec.make(0);
  try {
    env.autoReset = false;
    env.dotRounding = rounding;
    for (const episode of episodes) {
      const at = (t: number) => `seed ${episode.seed ?? '?'} step ${t}`;
      const compareObs = (ours: ArrayLike<number>, recorded: number[], t: number): void => {
        if (ours.length !== recorded.length) obs.see(Infinity, () => `${ours.length} entries, recorded ${recorded.length}, ${at(t)}`);
        for (let k = 0; k < Math.min(ours.length, recorded.length); k++) {
          if (!skipped.has(k)) obs.see(Math.abs(ours[k] - Math.fround(recorded[k])), () => `entry ${k}, ${at(t)}`);
        }
      };
      env.setRecordedState(0, episode.initial_qpos, episode.initial_qvel);
      env.restartFromState(0);
      compareObs(env.obs, episode.initial_obs, 0);
      episode.steps.forEach((step, t) => {
        const before = t === 0 ? { qpos: episode.initial_qpos, qvel: episode.initial_qvel } : episode.steps[t - 1];
        env.setRecordedState(0, before.qpos, before.qvel);
        env.giveNextState(0, step.qpos, step.qvel);
        env.step(step.action);
        compareObs(env.finalObs, step.obs, t + 1);
        if (rewardExact) reward.see(Math.abs(env.reward[0] - step.reward), () => at(t + 1));
        for (const [name, value] of Object.entries(env.info[0])) {
          if (name in subTerms) continue;
          terms.see(Math.abs(value - (step.info?.[name] ?? Number.NaN)), () => `${name}, ${at(t + 1)}`);
        }
        if (endingsExact && ((env.terminated[0] === 1) !== step.terminated || (env.truncated[0] === 1) !== step.truncated)) {
          flags += 1;
          firstFlag ||= ` (first: ${at(t + 1)})`;
        }
      });
    }
  } finally {
    env.dispose();
  }
  const ok = obs.value === 0 && reward.value === 0 && terms.value === 0 && flags === 0;
  return { obs, reward, terms, flags, firstFlag, ok };
}

/** What the logic check left to the last sub-step's check, in words. */
function leftOut(subStep: SubStepSpec): string {
  const parts = [
    subStep.obs.length > 0 ? `observation ${describeEntries(subStep.obs)}` : '',
    Object.keys(subStep.terms).length > 0 ? `the reward and ${Object.keys(subStep.terms).join(', ')}` : '',
    subStep.endings ? 'the endings' : '',
  ].filter((p) => p !== '');
  return ` (left to the last sub-step's check: ${parts.join(', ')})`;
}
