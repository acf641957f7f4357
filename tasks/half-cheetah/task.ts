/** HalfCheetah-v5: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { prepareMujoco } from '../mujoco-common/mujoco-env.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { metresForward, metresForwardProgress } from '../mujoco-common/healthy-episode.ts';
import { CHEETAH_RECORDED } from './recorded.ts';
import { HalfCheetahEnv, MAX_EPISODE_STEPS } from './environment.ts';
import { HALF_CHEETAH_CONFORMANCE } from './conformance.ts';
import { HALF_CHEETAH_BANK } from './bank-policies.ts';
import { HALF_CHEETAH_RENDERER } from './render.ts';
import { ENVIRONMENT_REWARD, HUMAN_SHAPING } from './rewards.ts';
import { HALF_CHEETAH_ACTION, HALF_CHEETAH_OBSERVATION } from './robot.ts';

/** Gymnasium's register(): reward_threshold 4800. */
export const REWARD_THRESHOLD = 4800;
/**
 * Metres forward a successful episode ends at, at least. Chosen as a return of 2,000 on Gymnasium's
 * reward at the budget, seeds 0-4, before any search (docs/mujoco.md): their greedy returns were
 * 3,240, 1,763, 1,460, 2,437 and 1,640, so the first line, 1,500, was reached on every seed but
 * one (90%); at 2,000, on two of five. Checked on seeds 5-9. A return of 2,000 is 100 m at 20 a
 * metre less the control cost; since success reads the recorded x (issue 43) it is the 100 m alone.
 */
export const SUCCESS_METRES = 100;

export default defineTask({
  id: 'HalfCheetah-v5',
  description:
    'A two-dimensional cat-like robot (a torso and head, a back leg and a front leg of thigh, shin and foot; six hinge motors) must run forward along +x as fast as it can. ' +
    `Nothing ends an episode early: it runs ${MAX_EPISODE_STEPS} steps (50 s), upright or on its back. ` +
    `Solved here means ending at least ${SUCCESS_METRES} m forward of where the torso started (Gymnasium's reward_threshold is a return of ${REWARD_THRESHOLD}).`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: HALF_CHEETAH_OBSERVATION,
  recorded: CHEETAH_RECORDED,
  action: HALF_CHEETAH_ACTION,
  makeEnv: (n, seed) => new HalfCheetahEnv(n, seed),
  prepare: prepareMujoco,

  success: {
    clause: `run at least ${SUCCESS_METRES} m forward in ${MAX_EPISODE_STEPS} steps`,
    headline: `runs ${SUCCESS_METRES} m in 50 s`,
    describe: `An episode succeeds when its torso's recorded x at the end is at least ${SUCCESS_METRES} m beyond its x at the start ` +
      `(${SUCCESS_METRES / 50} m/s on average over its ${MAX_EPISODE_STEPS} steps), upright or not.`,
    test: (episode) => metresForward(episode) >= SUCCESS_METRES,
  },
  progress: metresForwardProgress(SUCCESS_METRES),
  termination: 'never',

  baselines: { environment: ENVIRONMENT_REWARD, human: HUMAN_SHAPING },

  features: [
    { name: 'forwardSpeed', expression: 'Math.min(1, Math.max(0, s[8] / 3))', describe: 'the torso\'s forward speed, 0 standing or backwards, 1 at 3 m/s or more' },
    { name: 'level', expression: '1 - Math.min(1, Math.abs(s[1]) / 1.5)', describe: 'how level the torso is, 1 level, 0 at 1.5 rad (on its nose or its back)' },
    { name: 'calm', expression: '1 - Math.min(1, Math.abs(s[10]) / 5)', describe: 'how slowly the torso turns, 1 still, 0 at 5 rad/s' },
  ],

  render: HALF_CHEETAH_RENDERER,
  bank: HALF_CHEETAH_BANK,
  ppo: MUJOCO_PPO,
  // CleanRL's budget; the learning table on seeds 0-9 is in docs/mujoco.md. The smoke budget runs the loop (10 updates), it does not run.
  // stepsPerSecond and raceSurvival: fitted to its medium search (`npx tsx bench/estimate-fit.ts DIR`,
  // docs/estimate-and-costs.md): 9,808 steps per seed-run-second two at once, 10,898 as one idle core, rounded down;
  // 0.65 of the candidates in after a rung gives its raced steps to 4%. They were 1,000 and none (1): its estimate said
  // 11 h 44 min for a search of 46 minutes.
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 10_000, raceSurvival: 0.65 },
  conformance: HALF_CHEETAH_CONFORMANCE,
});
