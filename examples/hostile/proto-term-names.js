// idea: term names that are special words on JavaScript objects; they must be plain names
function computeReward(obs, action, nextObs, terminated) {
  const terms = { ['__proto__']: 1.5, constructor: 2, toString: -3, hasOwnProperty: 0.25 };
  return [terms.constructor + terms.toString, terms];
}
