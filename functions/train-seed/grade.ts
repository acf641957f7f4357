/**
 * Grading is trusted code: the real environment, the policy's greedy action, and the task metric
 * (did the car reach the flag). The candidate's reward is never called here.
 */
import { VecMountainCar } from './mountain-car.ts';
import { ACTOR_SLOTS, NUM_ACTIONS, OBS_SIZE, forwardJs, prepareJs, scaleObservation } from './network.ts';

/** Evaluation seeds start far above any training seed, so the two never meet. */
export const EVAL_SEED_OFFSET = 1_000_003;

export interface Grade {
  /** Share of episodes that reached the flag. */
  success: number;
  /** Mean steps to the flag over the successful episodes; null when none succeeded. */
  meanStepsToFlag: number | null;
  /** Mean over episodes of the highest position reached. */
  meanMaxPosition: number;
  /** The first episode, step by step, for the card. */
  episode: { positions: number[]; velocities: number[] };
}

/** Runs `episodes` greedy episodes side by side, each to its end, and grades them. */
export function grade(theta: Float32Array, seed: number, episodes: number): Grade {
  const envs = new VecMountainCar(episodes, EVAL_SEED_OFFSET + seed);
  const running = new Uint8Array(episodes).fill(1);
  const steps = new Int32Array(episodes);
  const reached = new Uint8Array(episodes);
  const maxPosition = Float64Array.from(envs.position);
  const episode = { positions: [envs.position[0]], velocities: [envs.velocity[0]] };
  const x = new Float32Array(episodes * OBS_SIZE);
  const logits = new Float32Array(episodes * NUM_ACTIONS);
  const actions = new Int32Array(episodes);
  const actor = prepareJs(theta, ACTOR_SLOTS);

  while (running.some((r) => r === 1)) {
    for (let e = 0; e < episodes; e++) scaleObservation(envs.obs[2 * e], envs.obs[2 * e + 1], x, 2 * e);
    forwardJs(actor, x, episodes, logits);
    for (let e = 0; e < episodes; e++) actions[e] = argmax(logits, e * NUM_ACTIONS, NUM_ACTIONS);
    envs.step(actions);
    for (let e = 0; e < episodes; e++) {
      if (!running[e]) continue;
      steps[e] += 1;
      maxPosition[e] = Math.max(maxPosition[e], envs.finalObs[2 * e]);
      if (e === 0) {
        episode.positions.push(envs.finalObs[0]);
        episode.velocities.push(envs.finalObs[1]);
      }
      if (envs.terminated[e] || envs.truncated[e]) {
        running[e] = 0;
        reached[e] = envs.terminated[e];
      }
    }
  }

  const wins = [...reached.keys()].filter((e) => reached[e] === 1);
  return {
    success: wins.length / episodes,
    meanStepsToFlag: wins.length > 0 ? wins.reduce((sum, e) => sum + steps[e], 0) / wins.length : null,
    meanMaxPosition: maxPosition.reduce((a, b) => a + b, 0) / episodes,
    episode,
  };
}

function argmax(xs: Float32Array, start: number, n: number): number {
  let best = 0;
  for (let a = 1; a < n; a++) if (xs[start + a] > xs[start + best]) best = a;
  return best;
}
