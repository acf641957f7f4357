// idea: report more terms than the sandbox accepts
function computeReward(obs, action, nextObs, terminated) {
  const terms = {};
  for (let k = 0; k < 40; k++) terms['term' + k] = 0;
  return [-1, terms];
}
