// idea: never finish loading: an infinite loop in the top-level code
let warmedUp = false;
while (!warmedUp) {
  warmedUp = Math.random() > 2;
}
function computeReward(obs, action, nextObs, terminated) {
  return [-1, { step: -1 }];
}
