// idea: a regular expression with catastrophic backtracking (exponential time in the input length)
function computeReward(obs, action, nextObs, terminated) {
  const label = 'a'.repeat(40) + 'b';
  const matches = /^(a+)+$/.test(label);
  return [matches ? 1 : -1, { step: -1 }];
}
