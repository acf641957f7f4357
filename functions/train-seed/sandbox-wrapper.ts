/**
 * The trusted script that runs inside the QuickJS context BEFORE the candidate's code.
 *
 * It captures every built-in it uses into closure variables, so a candidate that later replaces
 * JSON, Object.keys, Number.isFinite, Reflect, Array.prototype... changes nothing here. It never
 * calls prototype methods on values it did not create, never coerces a candidate's value (only
 * `typeof` checks), and stores results in typed arrays and null-prototype objects, where no
 * setter on Array.prototype or Object.prototype can intercept a write.
 *
 * The script's completion value is an object of five functions; the host takes handles to them
 * before the candidate's code runs, so the candidate cannot reach or replace them.
 *
 * - bind(maxTerms, maxNameLength): looks up computeReward once. Returns "" or why it failed.
 * - run(input, count): input is an ArrayBuffer (a copy the host made) of float64 values, one
 *   transition after another: obs, action, nextObs, terminated (0/1), and the recorded state
 *   before and after where the task keeps one. Returns a JSON string:
 *   {"names":[...]} or the first fault, {"fault":kind,"step":i,...}.
 *
 * The script is generated for the task's layout (observation and action sizes), so that every
 * argument is an array literal: a literal defines its elements, so no setter a candidate puts on
 * Array.prototype sees them being made, and each call gets fresh arrays (a candidate that mutates
 * the ones it was given changes nothing but its own copy).
 * - take(): after a successful run, an ArrayBuffer of count rewards followed by count values per
 *   term in the order of names. Numbers travel as raw float64: exact, and no decimal formatting
 *   or parsing in the interpreter (JSON both ways cost about 10 ms per 2048 transitions).
 * - describe(thrown): a JSON {type,readable,name,message,stack} of anything thrown, read defensively.
 * - progress(): the index of the transition being evaluated (read after an interrupt).
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { recordSizeOf, strideOf } from './sandbox-report.ts';
import type { TransitionLayout } from './sandbox-types.ts';

/** `[d[b + from], d[b + from + 1], ...]`: an array literal of n values from the input. */
function literal(from: number, n: number): string {
  return `[${Array.from({ length: n }, (_, j) => `data[b + ${from + j}]`).join(', ')}]`;
}

/** The wrapper for one task's layout (sizes are integers the host chose, never candidate text). */
export function wrapperSource(layout: TransitionLayout): string {
  const { obsSize: d, actionSize: k, discrete } = layout;
  const r = recordSizeOf(layout);
  if (![d, k].every((n) => Number.isInteger(n) && n >= 1 && n <= 256)) throw new RangeError('transition layout sizes must be 1..256');
  if (!(Number.isInteger(r) && r >= 0 && r <= 64)) throw new RangeError('the recorded state\'s size must be 0..64');
  const action = discrete ? `data[b + ${d}]` : literal(d, k);
  const at = 2 * d + k + 1;
  // The recorded state before and after the step, where the task keeps one: two more arguments.
  const state = r > 0 ? `, ${literal(at, r)}, ${literal(at + r, r)}` : '';
  return WRAPPER_TEMPLATE
    .replaceAll('__STRIDE__', String(strideOf(layout)))
    .replaceAll('__CALL__', `reward(${literal(0, d)}, ${action}, ${literal(d + k, d)}, data[b + ${2 * d + k}] === 1${state})`);
}

const WRAPPER_TEMPLATE = String.raw`(function () {
  'use strict';
  const apply = Reflect.apply;
  const quote = JSON.stringify;
  const keysOf = Object.keys;
  const create = Object.create;
  const isArray = Array.isArray;
  const isFinite = Number.isFinite;
  const toText = String;
  const sliceText = String.prototype.slice;
  const F64 = Float64Array;
  const Bytes = ArrayBuffer;
  const copyInto = Object.getPrototypeOf(Float64Array.prototype).set;
  const MAX_TEXT = 300;

  let reward = null;
  let maxTerms = 0;
  let maxNameLength = 0;
  let step = 0;
  let output = null;

  function clip(text) {
    return text.length > MAX_TEXT ? apply(sliceText, text, [0, MAX_TEXT]) : text;
  }

  // Reads name/message/stack of anything thrown; getters may throw (caught) or loop (interrupted).
  function describe(thrown) {
    const type = thrown === null ? 'null' : typeof thrown;
    let name = '';
    let message = '';
    let stack = '';
    let readable = true;
    try {
      if (type === 'object' || type === 'function') {
        const n = thrown.name;
        const m = thrown.message;
        const s = thrown.stack;
        if (typeof n === 'string') name = clip(n);
        if (typeof m === 'string') message = clip(m);
        if (typeof s === 'string') stack = clip(s);
      } else {
        message = clip(toText(thrown));
      }
    } catch (inner) {
      readable = false;
    }
    return '{"type":' + quote(type) + ',"readable":' + readable + ',"name":' + quote(name) +
      ',"message":' + quote(message) + ',"stack":' + quote(stack) + '}';
  }

  function bind(terms, nameLength) {
    maxTerms = terms;
    maxNameLength = nameLength;
    // A free identifier: finds function declarations, var, let and const at the top level.
    const found = typeof computeReward === 'undefined' ? undefined : computeReward;
    if (typeof found === 'undefined') return 'missing';
    if (typeof found !== 'function') return typeof found;
    reward = found;
    return '';
  }

  function fault(kind, i, extra) {
    return '{"fault":' + quote(kind) + ',"step":' + i + extra + '}';
  }

  function typeName(value) {
    if (value === null) return 'null';
    return isArray(value) ? 'array' : typeof value;
  }

  function run(input, count) {
    output = null;
    const data = new F64(input, 0, __STRIDE__ * count);
    const rewards = new F64(count);
    const index = create(null);   // term name -> column number
    const names = create(null);   // column number -> term name
    const columns = create(null); // column number -> Float64Array of count values
    let termCount = 0;
    for (let i = 0; i < count; i++) {
      step = i;
      const b = __STRIDE__ * i;
      let result;
      let total;
      let terms;
      let keys;
      try {
        result = __CALL__;
        if (isArray(result)) {
          total = result[0];
          terms = result[1];
        } else if (typeof result === 'object' && result !== null) {
          total = result.reward;
          terms = result.terms;
        } else {
          return fault('shape', i, ',"got":' + quote(typeName(result)));
        }
        if (typeof total !== 'number') return fault('total', i, ',"got":' + quote(typeName(total)));
        if (typeof terms !== 'object' || terms === null || isArray(terms)) {
          return fault('terms', i, ',"got":' + quote(typeName(terms)));
        }
        if (!isFinite(total)) {
          // Name the term that made it so, where one did: "NaN" alone leaves the author to guess.
          const all = keysOf(terms);
          for (let k = 0; k < all.length; k++) {
            const value = terms[all[k]];
            if (typeof value === 'number' && !isFinite(value)) return fault('term-nonfinite', i, ',"term":' + quote(clip(all[k])));
          }
          return fault('nonfinite', i, '');
        }
        rewards[i] = total;
        keys = keysOf(terms);
        for (let k = 0; k < keys.length; k++) {
          const name = keys[k];
          const value = terms[name];
          if (typeof value !== 'number') {
            return fault('term-type', i, ',"term":' + quote(clip(name)) + ',"got":' + quote(typeName(value)));
          }
          if (!isFinite(value)) return fault('term-nonfinite', i, ',"term":' + quote(clip(name)));
          let column = index[name];
          if (column === undefined) {
            if (name.length > maxNameLength) return fault('term-name', i, ',"term":' + quote(clip(name)));
            if (termCount >= maxTerms) return fault('term-count', i, '');
            column = termCount++;
            index[name] = column;
            names[column] = name;
            columns[column] = new F64(count);
          }
          columns[column][i] = value;
        }
      } catch (thrown) {
        return fault('threw', i, ',"error":' + describe(thrown));
      }
    }
    return report(count, rewards, termCount, names, columns);
  }

  // Packs rewards and term columns into one fresh buffer for take(); returns the names.
  function report(count, rewards, termCount, names, columns) {
    const buffer = new Bytes(8 * count * (1 + termCount));
    const values = new F64(buffer);
    apply(copyInto, values, [rewards, 0]);
    let nameText = '[';
    for (let k = 0; k < termCount; k++) {
      apply(copyInto, values, [columns[k], count * (1 + k)]);
      nameText += (k === 0 ? '' : ',') + quote(names[k]);
    }
    output = buffer;
    return '{"names":' + nameText + ']}';
  }

  function take() {
    const buffer = output;
    output = null;
    return buffer;
  }

  function progress() {
    return step;
  }

  // A reward is a function of its transition: no clock to make it differ from call to call.
  delete globalThis.Date;

  const api = create(null);
  api.bind = bind;
  api.run = run;
  api.take = take;
  api.describe = describe;
  api.progress = progress;
  return api;
})()`;

/** Handles to the wrapper's functions, taken before the candidate's code runs. */
export interface WrapperApi {
  bind: QuickJSHandle;
  run: QuickJSHandle;
  take: QuickJSHandle;
  describe: QuickJSHandle;
  progress: QuickJSHandle;
}

/** Evaluates the wrapper (trusted code) and keeps handles to its functions. */
export function takeWrapperApi(context: QuickJSContext, layout: TransitionLayout): WrapperApi {
  const result = context.evalCode(wrapperSource(layout), 'wrapper.js', { type: 'global', strict: true });
  if (result.error) {
    const reason = JSON.stringify(context.dump(result.error));
    result.dispose();
    throw new Error(`sandbox wrapper failed to load: ${reason}`);
  }
  const object = result.value;
  try {
    return {
      bind: context.getProp(object, 'bind'),
      run: context.getProp(object, 'run'),
      take: context.getProp(object, 'take'),
      describe: context.getProp(object, 'describe'),
      progress: context.getProp(object, 'progress'),
    };
  } finally {
    object.dispose();
  }
}
