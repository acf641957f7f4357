/**
 * The trainer's dense-layer arithmetic in WebAssembly SIMD (four float32 lanes): a tanh MLP's
 * forward pass and the pieces of its backward pass. Matrices are row-major float32 in this
 * module's memory at byte offsets that mlp-kernel.ts (beside this folder) lays out; nothing is
 * allocated here. A width that is vectorized must be a multiple of 4 (the hidden layers are 64);
 * the observation and action widths may be anything (the caller picks the variant that fits).
 *
 * Register blocking: two rows times four vectors (16 outputs) keep 8 accumulators, 2 broadcasts
 * and 4 weight vectors in registers; the inner loop reads each weight vector once for two rows.
 */

// ---- tanh, on four lanes: a rational minimax approximation (the float32 coefficients Eigen uses
// for its fast tanh), within 1e-6 of Math.tanh everywhere (test/mlp-kernel.test.ts).
const CLAMP: f32 = 7.90531110763549805;
const A13: f32 = -2.76076847742355e-16;
const A11: f32 = 2.00018790482477e-13;
const A9: f32 = -8.60467152213735e-11;
const A7: f32 = 5.12229709037114e-08;
const A5: f32 = 1.48572235717979e-05;
const A3: f32 = 6.37261928875436e-04;
const A1: f32 = 4.89352455891786e-03;
const B6: f32 = 1.19825839466702e-06;
const B4: f32 = 1.18534705686654e-04;
const B2: f32 = 2.26843463243900e-03;
const B0: f32 = 4.89352518554385e-03;

// @ts-ignore: decorator
@inline function mad(a: v128, b: v128, c: f32): v128 {
  return f32x4.add(f32x4.mul(a, b), f32x4.splat(c));
}

// @ts-ignore: decorator
@inline function tanh4(z: v128): v128 {
  const x = f32x4.max(f32x4.min(z, f32x4.splat(CLAMP)), f32x4.splat(-CLAMP));
  const x2 = f32x4.mul(x, x);
  let p = mad(f32x4.splat(A13), x2, A11);
  p = mad(p, x2, A9);
  p = mad(p, x2, A7);
  p = mad(p, x2, A5);
  p = mad(p, x2, A3);
  p = mad(p, x2, A1);
  p = f32x4.mul(p, x);
  let q = mad(f32x4.splat(B6), x2, B4);
  q = mad(q, x2, B2);
  q = mad(q, x2, B0);
  return f32x4.div(p, q);
}

/** tanh of `count` values at p, in place (count a multiple of 4); for tests and the odd caller. */
export function tanhInPlace(p: usize, count: i32): void {
  for (let k = 0; k < count; k += 4) {
    const at = p + (<usize>k << 2);
    v128.store(at, tanh4(v128.load(at)));
  }
}

// @ts-ignore: decorator
@inline function finish(v: v128, tanh: bool): v128 {
  return tanh ? tanh4(v) : v;
}

// @ts-ignore: decorator
@inline function start(b: usize, o: i32): v128 {
  return b == 0 ? f32x4.splat(0) : v128.load(b + (<usize>o << 2));
}

/**
 * y[n, outputs] = x[n, inputs] · W[inputs, outputs] (+ bias, when b is not 0) (then tanh);
 * outputs a multiple of 4.
 */
export function dense(x: usize, n: i32, inputs: i32, w: usize, b: usize, outputs: i32, y: usize, tanh: bool): void {
  const rowIn = <usize>inputs << 2;
  const rowOut = <usize>outputs << 2;
  let r = 0;
  for (; r + 2 <= n; r += 2) {
    const x0 = x + <usize>r * rowIn, x1 = x0 + rowIn;
    const y0 = y + <usize>r * rowOut, y1 = y0 + rowOut;
    let o = 0;
    for (; o + 16 <= outputs; o += 16) {
      let a0 = start(b, o), a1 = start(b, o + 4), a2 = start(b, o + 8), a3 = start(b, o + 12);
      let c0 = a0, c1 = a1, c2 = a2, c3 = a3;
      let wp = w + (<usize>o << 2);
      for (let i = 0; i < inputs; i++) {
        const xa = v128.load32_splat(x0 + (<usize>i << 2));
        const xb = v128.load32_splat(x1 + (<usize>i << 2));
        const w0 = v128.load(wp), w1 = v128.load(wp, 16), w2 = v128.load(wp, 32), w3 = v128.load(wp, 48);
        a0 = f32x4.add(a0, f32x4.mul(xa, w0)); c0 = f32x4.add(c0, f32x4.mul(xb, w0));
        a1 = f32x4.add(a1, f32x4.mul(xa, w1)); c1 = f32x4.add(c1, f32x4.mul(xb, w1));
        a2 = f32x4.add(a2, f32x4.mul(xa, w2)); c2 = f32x4.add(c2, f32x4.mul(xb, w2));
        a3 = f32x4.add(a3, f32x4.mul(xa, w3)); c3 = f32x4.add(c3, f32x4.mul(xb, w3));
        wp += rowOut;
      }
      const p0 = y0 + (<usize>o << 2), p1 = y1 + (<usize>o << 2);
      v128.store(p0, finish(a0, tanh)); v128.store(p0, finish(a1, tanh), 16); v128.store(p0, finish(a2, tanh), 32); v128.store(p0, finish(a3, tanh), 48);
      v128.store(p1, finish(c0, tanh)); v128.store(p1, finish(c1, tanh), 16); v128.store(p1, finish(c2, tanh), 32); v128.store(p1, finish(c3, tanh), 48);
    }
    for (; o < outputs; o += 4) {
      denseVector(x0, inputs, w, b, outputs, o, y0, tanh);
      denseVector(x1, inputs, w, b, outputs, o, y1, tanh);
    }
  }
  for (; r < n; r++) {
    const x0 = x + <usize>r * rowIn, y0 = y + <usize>r * rowOut;
    for (let o = 0; o < outputs; o += 4) denseVector(x0, inputs, w, b, outputs, o, y0, tanh);
  }
}

/** One row's outputs o..o+3 of dense(). */
function denseVector(x0: usize, inputs: i32, w: usize, b: usize, outputs: i32, o: i32, y0: usize, tanh: bool): void {
  let a = start(b, o);
  let wp = w + (<usize>o << 2);
  const rowOut = <usize>outputs << 2;
  for (let i = 0; i < inputs; i++) {
    a = f32x4.add(a, f32x4.mul(v128.load32_splat(x0 + (<usize>i << 2)), v128.load(wp)));
    wp += rowOut;
  }
  v128.store(y0 + (<usize>o << 2), finish(a, tanh));
}

/**
 * y[n, outputs] = x[n, inputs] · Wᵀ + bias, with the weights given transposed, wT[outputs, inputs]
 * (each output a dot product of two contiguous rows): for a few outputs (a policy's head, a
 * value); inputs a multiple of 4.
 */
export function denseT(x: usize, n: i32, inputs: i32, wT: usize, b: usize, outputs: i32, y: usize): void {
  const rowIn = <usize>inputs << 2;
  for (let r = 0; r < n; r++) {
    const xr = x + <usize>r * rowIn;
    for (let o = 0; o < outputs; o++) {
      const wr = wT + <usize>o * rowIn;
      let s0 = f32x4.splat(0), s1 = f32x4.splat(0);
      let i = 0;
      for (; i + 8 <= inputs; i += 8) {
        const at = <usize>i << 2;
        s0 = f32x4.add(s0, f32x4.mul(v128.load(xr + at), v128.load(wr + at)));
        s1 = f32x4.add(s1, f32x4.mul(v128.load(xr + at, 16), v128.load(wr + at, 16)));
      }
      for (; i < inputs; i += 4) s0 = f32x4.add(s0, f32x4.mul(v128.load(xr + (<usize>i << 2)), v128.load(wr + (<usize>i << 2))));
      const s = f32x4.add(s0, s1);
      const sum = (f32x4.extract_lane(s, 0) + f32x4.extract_lane(s, 1)) + (f32x4.extract_lane(s, 2) + f32x4.extract_lane(s, 3));
      store<f32>(y + ((<usize>r * <usize>outputs + <usize>o) << 2), sum + load<f32>(b + (<usize>o << 2)));
    }
  }
}

/** dh ⊙= 1 - h², in place: the gradient through a tanh whose output was h (count a multiple of 4). */
export function tanhGrad(dh: usize, h: usize, count: i32): void {
  const one = f32x4.splat(1);
  for (let k = 0; k < count; k += 4) {
    const at = <usize>k << 2;
    const hv = v128.load(h + at);
    v128.store(dh + at, f32x4.mul(v128.load(dh + at), f32x4.sub(one, f32x4.mul(hv, hv))));
  }
}

/**
 * g[inputs, outputs] += a[n, inputs]ᵀ · d[n, outputs]: a layer's weight gradient from its inputs a
 * and the gradient d at its outputs; outputs a multiple of 4. Four inputs times two vectors of
 * outputs are summed over the rows in registers, then added to g once.
 */
export function gradWeights(a: usize, n: i32, inputs: i32, d: usize, outputs: i32, g: usize): void {
  const rowA = <usize>inputs << 2, rowD = <usize>outputs << 2;
  let i = 0;
  for (; i + 4 <= inputs; i += 4) {
    for (let o = 0; o < outputs; o += 8) {
      const two = o + 8 <= outputs;
      let s00 = f32x4.splat(0), s01 = s00, s10 = s00, s11 = s00, s20 = s00, s21 = s00, s30 = s00, s31 = s00;
      let ap = a + (<usize>i << 2), dp = d + (<usize>o << 2);
      for (let r = 0; r < n; r++) {
        const d0 = v128.load(dp);
        const d1 = two ? v128.load(dp, 16) : d0;
        const x0 = v128.load32_splat(ap), x1 = v128.load32_splat(ap, 4), x2 = v128.load32_splat(ap, 8), x3 = v128.load32_splat(ap, 12);
        s00 = f32x4.add(s00, f32x4.mul(x0, d0)); s01 = f32x4.add(s01, f32x4.mul(x0, d1));
        s10 = f32x4.add(s10, f32x4.mul(x1, d0)); s11 = f32x4.add(s11, f32x4.mul(x1, d1));
        s20 = f32x4.add(s20, f32x4.mul(x2, d0)); s21 = f32x4.add(s21, f32x4.mul(x2, d1));
        s30 = f32x4.add(s30, f32x4.mul(x3, d0)); s31 = f32x4.add(s31, f32x4.mul(x3, d1));
        ap += rowA;
        dp += rowD;
      }
      const g0 = g + <usize>i * rowD + (<usize>o << 2);
      addTo(g0, s00); addTo(g0 + rowD, s10); addTo(g0 + 2 * rowD, s20); addTo(g0 + 3 * rowD, s30);
      if (two) {
        addTo(g0 + 16, s01); addTo(g0 + rowD + 16, s11); addTo(g0 + 2 * rowD + 16, s21); addTo(g0 + 3 * rowD + 16, s31);
      }
    }
  }
  for (; i < inputs; i++) {
    for (let o = 0; o < outputs; o += 4) {
      let s = f32x4.splat(0);
      let ap = a + (<usize>i << 2), dp = d + (<usize>o << 2);
      for (let r = 0; r < n; r++) {
        s = f32x4.add(s, f32x4.mul(v128.load32_splat(ap), v128.load(dp)));
        ap += rowA;
        dp += rowD;
      }
      addTo(g + <usize>i * rowD + (<usize>o << 2), s);
    }
  }
}

/**
 * g[inputs, outputs] += a[n, inputs]ᵀ · d[n, outputs] for a few outputs (a head): summed along
 * the inputs, a multiple of 4, one output at a time.
 */
export function gradWeightsNarrow(a: usize, n: i32, inputs: i32, d: usize, outputs: i32, g: usize): void {
  const rowA = <usize>inputs << 2, rowD = <usize>outputs << 2;
  for (let o = 0; o < outputs; o++) {
    let i = 0;
    while (i < inputs) {
      let s0 = f32x4.splat(0), s1 = s0, s2 = s0, s3 = s0;
      const four = i + 16 <= inputs;
      let ap = a + (<usize>i << 2), dp = d + (<usize>o << 2);
      for (let r = 0; r < n; r++) {
        const dv = v128.load32_splat(dp);
        s0 = f32x4.add(s0, f32x4.mul(dv, v128.load(ap)));
        if (four) {
          s1 = f32x4.add(s1, f32x4.mul(dv, v128.load(ap, 16)));
          s2 = f32x4.add(s2, f32x4.mul(dv, v128.load(ap, 32)));
          s3 = f32x4.add(s3, f32x4.mul(dv, v128.load(ap, 48)));
        }
        ap += rowA;
        dp += rowD;
      }
      scatter(g, outputs, i, o, s0);
      if (four) {
        scatter(g, outputs, i + 4, o, s1);
        scatter(g, outputs, i + 8, o, s2);
        scatter(g, outputs, i + 12, o, s3);
      }
      i += four ? 16 : 4;
    }
  }
}

/** g[i..i+3, o] += s (a column of a row-major [*, outputs] matrix). */
function scatter(g: usize, outputs: i32, i: i32, o: i32, s: v128): void {
  const row = <usize>outputs << 2;
  const p = g + <usize>i * row + (<usize>o << 2);
  store<f32>(p, load<f32>(p) + f32x4.extract_lane(s, 0));
  store<f32>(p + row, load<f32>(p + row) + f32x4.extract_lane(s, 1));
  store<f32>(p + 2 * row, load<f32>(p + 2 * row) + f32x4.extract_lane(s, 2));
  store<f32>(p + 3 * row, load<f32>(p + 3 * row) + f32x4.extract_lane(s, 3));
}

// @ts-ignore: decorator
@inline function addTo(p: usize, s: v128): void {
  v128.store(p, f32x4.add(v128.load(p), s));
}

/** g[outputs] += Σ_r d[r, outputs]: a bias gradient (any width). */
export function columnSums(d: usize, n: i32, outputs: i32, g: usize): void {
  const rowD = <usize>outputs << 2;
  let o = 0;
  for (; o + 4 <= outputs; o += 4) {
    let s = f32x4.splat(0);
    let dp = d + (<usize>o << 2);
    for (let r = 0; r < n; r++) {
      s = f32x4.add(s, v128.load(dp));
      dp += rowD;
    }
    addTo(g + (<usize>o << 2), s);
  }
  for (; o < outputs; o++) {
    let s: f32 = 0;
    let dp = d + (<usize>o << 2);
    for (let r = 0; r < n; r++) {
      s += load<f32>(dp);
      dp += rowD;
    }
    store<f32>(g + (<usize>o << 2), load<f32>(g + (<usize>o << 2)) + s);
  }
}

/** dst[cols, rows] = src[rows, cols]ᵀ. */
export function transpose(src: usize, rows: i32, cols: i32, dst: usize): void {
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      store<f32>(dst + ((<usize>c * <usize>rows + <usize>r) << 2), load<f32>(src + ((<usize>r * <usize>cols + <usize>c) << 2)));
    }
  }
}

// ---- The optimizer, in float64 as adam.ts computes it (the same operations in the same order, so
// the two agree bit for bit: test/mlp-kernel.test.ts); the parameters stay float32.

/** Σ g[i]² over count float32 values, in order. */
export function sumSquares(g: usize, count: i32): f64 {
  let sum: f64 = 0;
  for (let i = 0; i < count; i++) {
    const x = <f64>load<f32>(g + (<usize>i << 2));
    sum += x * x;
  }
  return sum;
}

/**
 * One Adam step over count parameters, each gradient times gradScale (the norm clip's factor, or
 * 1): m and v are float64, theta float32.
 */
export function adam(theta: usize, g: usize, m: usize, v: usize, count: i32, gradScale: f64, beta1: f64, beta2: f64, stepSize: f64, invSqrtCorrection2: f64, epsilon: f64): void {
  const c1 = 1 - beta1, c2 = 1 - beta2;
  for (let i = 0; i < count; i++) {
    const at = <usize>i;
    let gi = <f64>load<f32>(g + (at << 2));
    if (gradScale < 1) gi *= gradScale;
    const mi = beta1 * load<f64>(m + (at << 3)) + c1 * gi;
    const vi = beta2 * load<f64>(v + (at << 3)) + c2 * gi * gi;
    store<f64>(m + (at << 3), mi);
    store<f64>(v + (at << 3), vi);
    const t = <f64>load<f32>(theta + (at << 2));
    store<f32>(theta + (at << 2), <f32>(t - (stepSize * mi) / (Math.sqrt(vi) * invSqrtCorrection2 + epsilon)));
  }
}
