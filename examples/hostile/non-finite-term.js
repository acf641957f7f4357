// idea: a finite total with an infinite term (division by zero)
function computeReward(obs, action, nextObs, terminated) {
  const stillness = 1 / (nextObs[1] - nextObs[1]);
  return [-1, { step: -1, stillness }];
}
