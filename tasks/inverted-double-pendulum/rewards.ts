/**
 * InvertedDoublePendulum-v5's two baselines as reward files: the environment's own reward, written
 * over what a reward sees (the tip's position rebuilt from the cart's position and the poles'
 * sines and cosines, 0.6 m each), and a person's first shaping.
 */
import type { RewardSource } from '../contract.ts';

const ENV_IDEA = 'The environment\'s own reward: 10 for every step balanced, less the squared distance of the second pole\'s tip from 2 m high (and 0.01 times its x squared) and the poles\' squared spin.';

export const ENVIRONMENT_REWARD: RewardSource = {
  idea: ENV_IDEA,
  code: `// idea: ${ENV_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  // The tip: the cart's x, plus 0.6 m along each pole (angles a1, and a1 + a2 for the second).
  const [x, s1, s2, c1, c2] = nextObs;
  const sin12 = s1 * c2 + c1 * s2;
  const cos12 = c1 * c2 - s1 * s2;
  const tipX = x + 0.6 * s1 + 0.6 * sin12;
  const tipY = 0.6 * c1 + 0.6 * cos12;
  const survive = terminated ? 0 : 10;
  const distance = -(0.01 * tipX * tipX + (tipY - 2) * (tipY - 2));
  const velocity = -(1e-3 * nextObs[6] * nextObs[6] + 5e-3 * nextObs[7] * nextObs[7]);
  return [survive + distance + velocity, { survive, distance, velocity }];
}
`,
};

const HUMAN_IDEA = 'A bonus for every step alive, a penalty for the tip dropping below upright and for the poles\' spin, and a pull of the cart back towards the rail\'s centre.';

export const HUMAN_SHAPING: RewardSource = {
  idea: HUMAN_IDEA,
  code: `// idea: ${HUMAN_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const [x, s1, s2, c1, c2] = nextObs;
  const tipY = 0.6 * c1 + 0.6 * (c1 * c2 - s1 * s2);
  const alive = terminated ? -10 : 2;
  const droop = -10 * (1.2 - tipY);
  const spin = -0.01 * (nextObs[6] * nextObs[6] + nextObs[7] * nextObs[7]);
  const centre = -0.1 * x * x;
  return [alive + droop + spin + centre, { alive, droop, spin, centre }];
}
`,
};
