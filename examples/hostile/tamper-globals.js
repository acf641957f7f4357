// idea: replace the built-ins a host wrapper might use, then return honest numbers
JSON.stringify = () => '{"names":["forged"]}';
JSON.parse = () => ({ names: ['forged'] });
Object.keys = () => ['forged'];
Object.create = () => ({ forged: true });
Object.getPrototypeOf = () => null;
Array.isArray = () => true;
Number.isFinite = () => true;
Reflect.apply = () => undefined;
Function.prototype.call = () => 1e9;
Function.prototype.apply = () => 1e9;
Function.prototype.bind = () => () => 1e9;
Array.prototype.push = () => 0;
Array.prototype.join = () => '1e9';
Array.prototype[Symbol.iterator] = function* () { yield 1e9; };
String.prototype.slice = () => 'forged';
Number.prototype.toString = () => '1e9';
Object.prototype.toJSON = () => 'forged';
Object.defineProperty(Object.prototype, 'reward', { get: () => 1e9, set() {}, configurable: true });
Object.defineProperty(Array.prototype, '0', { get: () => 1e9, set() {}, configurable: true });
Object.defineProperty(Array.prototype, '5', { get: () => 1e9, set() {}, configurable: true });
const typedArray = Object.getPrototypeOf(Float64Array.prototype) || Float64Array.prototype.__proto__;
Object.defineProperty(typedArray, 'length', { get: () => 0, configurable: true });
Object.defineProperty(typedArray, 'buffer', { get: () => new ArrayBuffer(8), configurable: true });
typedArray.set = () => undefined;
globalThis.Float64Array = function () { return [1e9]; };
globalThis.ArrayBuffer = function () { return {}; };
globalThis.Math = { sin: () => 1e9, cos: () => 1e9 };
globalThis.String = () => 'forged';

function computeReward(obs, action, nextObs, terminated) {
  const progress = (nextObs[0] - obs[0]) * 10;
  const push = action === 1 ? 0 : -0.001;
  const goal = terminated ? 5 : 0;
  return [progress + push + goal, { progress, push, goal }];
}
