// idea: throw an object whose message getter itself throws, to break whoever reports the error
function computeReward(obs, action, nextObs, terminated) {
  throw {
    name: 'Error',
    get message() {
      throw new Error('gotcha');
    },
    toString() {
      throw new Error('gotcha again');
    },
  };
}
