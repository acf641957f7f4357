// idea: probe every way out of the sandbox and report what was reachable as terms (all should be 0)
let imported = 0;
try {
  import('node:fs').then(() => { imported = 1; }, () => { imported = 2; });
} catch (error) {
  imported = 0;
}

function computeReward(obs, action, nextObs, terminated) {
  const reachable = (probe) => {
    try {
      const value = probe();
      return value === undefined || value === null ? 0 : 1;
    } catch (error) {
      return 0;
    }
  };
  const terms = {
    require: reachable(() => require),
    process: reachable(() => process),
    fetch: reachable(() => fetch),
    xhr: reachable(() => XMLHttpRequest),
    webSocket: reachable(() => WebSocket),
    quickjsStd: reachable(() => std),
    quickjsOs: reachable(() => os),
    webAssembly: reachable(() => WebAssembly),
    functionThis: reachable(() => Function('return this')().process),
    constructorChain: reachable(() => ({}).constructor.constructor('return process')()),
    caller: reachable(() => computeReward.caller),
    imported,
  };
  return [0, terms];
}
