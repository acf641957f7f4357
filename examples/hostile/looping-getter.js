// idea: return an object whose reward getter never returns, so reading the result hangs
function computeReward(obs, action, nextObs, terminated) {
  return {
    get reward() {
      for (;;) {}
    },
    terms: { step: -1 },
  };
}
