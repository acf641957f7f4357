/** Walker2d-v5: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { prepareMujoco } from '../mujoco-common/mujoco-env.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { metresForward, stayedHealthy, metresForwardProgress } from '../mujoco-common/healthy-episode.ts';
import { UPRIGHT_TORSO_XZ_ANGLE } from '../mujoco-common/recorded.ts';
import { walker2dConformance } from './conformance.ts';
import { MAX_EPISODE_STEPS, Walker2dEnv } from './environment.ts';
import { WALKER2D_BANK } from './bank-policies.ts';
import { WALKER2D_RENDERER } from './render.ts';
import { ENVIRONMENT_REWARD, HUMAN_SHAPING } from './rewards.ts';
import { WALKER2D_ACTION, WALKER2D_OBSERVATION } from './robot.ts';

/** Metres forward a successful episode ends at, at least (fixed before any run: see docs/mujoco.md). */
export const SUCCESS_METRES = 8;

export default defineTask({
  id: 'Walker2d-v5',
  description:
    'A two-dimensional two-legged robot (a torso and two legs of thigh, leg and foot; six hinge motors) must walk forward along +x without falling: ' +
    'the episode ends as soon as its torso drops to 0.8 m (or rises to 2 m) or tilts 1 rad, or after 1,000 steps. ' +
    `Solved here means staying healthy all ${MAX_EPISODE_STEPS} steps and ending at least ${SUCCESS_METRES} m forward of where the torso started (Gymnasium registers no reward_threshold for it).`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  observation: WALKER2D_OBSERVATION,
  action: WALKER2D_ACTION,
  recorded: UPRIGHT_TORSO_XZ_ANGLE,
  makeEnv: (n, seed) => new Walker2dEnv(n, seed),
  prepare: prepareMujoco,

  success: {
    clause: `stay healthy all ${MAX_EPISODE_STEPS} steps and walk at least ${SUCCESS_METRES} m forward`,
    headline: `walks ${SUCCESS_METRES} m without falling`,
    describe: `An episode succeeds when the walker stays healthy all ${MAX_EPISODE_STEPS} steps (never terminated) and its torso's recorded x at the end ` +
      `is at least ${SUCCESS_METRES} m beyond its x at the start.`,
    test: (episode) => stayedHealthy(episode, MAX_EPISODE_STEPS) && metresForward(episode) >= SUCCESS_METRES,
  },
  progress: metresForwardProgress(SUCCESS_METRES, MAX_EPISODE_STEPS),
  termination: 'failure',

  baselines: { environment: ENVIRONMENT_REWARD, human: HUMAN_SHAPING },

  features: [
    { name: 'height', expression: 'Math.min(1, Math.max(0, (s[0] - 0.8) / 0.45))', describe: 'how high the torso is, 0 at the 0.8 m where the episode ends, 1 at its starting 1.25 m' },
    { name: 'upright', expression: '1 - Math.min(1, Math.abs(s[1]))', describe: 'how upright the torso is, 1 upright, 0 at the 1 rad tilt that ends the episode' },
    { name: 'forwardSpeed', expression: 'Math.min(1, Math.max(0, s[8] / 3))', describe: 'the torso\'s forward speed, 0 standing or backwards, 1 at 3 m/s or more' },
    { name: 'calm', expression: '1 - Math.min(1, Math.abs(s[10]) / 5)', describe: 'how slowly the torso turns, 1 still, 0 at 5 rad/s' },
  ],

  render: WALKER2D_RENDERER,
  bank: WALKER2D_BANK,
  ppo: MUJOCO_PPO,
  // CleanRL's budget; the learning table on seeds 0-9 is in docs/mujoco.md. The smoke budget runs the loop (10 updates), it does not walk.
  // stepsPerSecond, as every task's (docs/estimate-and-costs.md, "Each task's speed"): the fit of its medium search
  // (`npx tsx bench/estimate-fit.ts DIR`), 4,994 steps a second as one idle core, rounded down; `bench/seed-speed.ts`
  // measured 5,084-5,123 per CPU-second beside it (102,400 steps). It was 5,400, from its bank's one 1M-step seed-run.
  // raceSurvival: the other two 1M-step runners' fits (HalfCheetah 0.65, Swimmer 0.6). Both set before its own medium
  // search ran, which checked them (docs/estimate-and-costs.md): raced steps +8%, wall time +2%, GB-seconds +0%.
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 4_900, raceSurvival: 0.6 },
  // Logic exactly; the physics per step on the short random episodes and by distribution (conformance.ts).
  conformance: walker2dConformance,
});
