/** A MountainCar-v0 reward the tests' model answers with: potential-based shaping on energy at `scale`, a goal bonus and a step cost. */
export const energyReward = (scale: number): string => `function computeReward(obs, action, nextObs, terminated) {
  const energy = (o) => 0.5 * o[1] * o[1] + 0.0025 / 3 * Math.sin(3 * o[0]);
  const shaping = ${scale} * (0.99 * energy(nextObs) - energy(obs));
  const goal = terminated ? 10 : 0;
  return [shaping + goal - 1, { shaping, goal, step: -1 }];
}`;
