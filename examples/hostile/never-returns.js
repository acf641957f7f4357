// idea: a reward that never returns (an infinite loop); the sandbox's deadline must stop it
function computeReward(obs, action, nextObs, terminated) {
  let height = Math.sin(3 * nextObs[0]);
  while (true) {
    height = height * 0.99 + 0.01;
  }
  return [height, { height }];
}
