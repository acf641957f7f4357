// idea: a term name longer than the sandbox accepts
function computeReward(obs, action, nextObs, terminated) {
  const terms = { step: -1 };
  terms['shaping_on_the_mechanical_energy_of_the_car_in_the_valley'] = 0;
  return [-1, terms];
}
