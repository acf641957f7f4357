// idea: recurse without end to overflow the stack
function computeReward(obs, action, nextObs, terminated) {
  const climb = (n) => climb(n + 1) + 1;
  return [climb(0), { climb: 1 }];
}
