/**
 * numpy's `np.linalg.norm(v, ord=2)` of a vector of two (Ant's and Swimmer's `distance_from_origin`)
 * to the last bit. numpy takes it as `sqrt(v.dot(v))`, and the dot is BLAS's `ddot`, whose rounding
 * is the kernel's that OpenBLAS picks for the CPU: its Haswell kernel rounds `x*x + y*y` as two
 * products and a sum ("separate"); its SkylakeX kernel (AVX-512) fuses the second product into the
 * sum, `fma(y, y, x*x)` ("fused"). A recording made with Gymnasium carries one or the other in its
 * last bit (docs/mujoco.md, Conformance: the 2.2.2 fixtures are separate on all 8,703 steps, the
 * seeds 600-639 recorded on an AVX-512 machine fused on all 7,462), so the port computes both.
 */

/** How the recording machine's BLAS rounds a dot product of two. */
export type DotRounding = 'separate' | 'fused';

export const DOT_ROUNDINGS: readonly DotRounding[] = ['separate', 'fused'];

/** `np.linalg.norm([x, y])` as numpy computes it over a BLAS that rounds the dot `rounding`'s way. */
export function numpyNorm2(x: number, y: number, rounding: DotRounding): number {
  return Math.sqrt(rounding === 'fused' ? fma(y, y, x * x) : x * x + y * y);
}

/**
 * a*b + c rounded once, as the hardware's fused multiply-add (JavaScript has none): Boldo and
 * Melquiond's emulation ("Emulation of FMA and correctly rounded sums: proved algorithms using
 * rounding to odd", 2008): the product split exactly, added exactly to c, the two low parts added
 * with rounding to odd, then one rounding to nearest. Finite inputs far from overflow and underflow
 * (a robot's position in metres).
 */
export function fma(a: number, b: number, c: number): number {
  const [productHigh, productLow] = twoProduct(a, b);
  const [sumHigh, sumLow] = twoSum(c, productHigh);
  return sumHigh + addRoundToOdd(sumLow, productLow);
}

/** Dekker's split: a = high + low, each half of the significand, exactly. */
function split(a: number): [number, number] {
  const t = 134217729 * a; // 2^27 + 1
  const high = t - (t - a);
  return [high, a - high];
}

/** a*b = high + low exactly (Dekker and Veltkamp). */
function twoProduct(a: number, b: number): [number, number] {
  const high = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [high, ((ah * bh - high) + ah * bl + al * bh) + al * bl];
}

/** a + b = sum + error exactly (Knuth). */
function twoSum(a: number, b: number): [number, number] {
  const sum = a + b;
  const bb = sum - a;
  return [sum, (a - (sum - bb)) + (b - bb)];
}

const bits = new DataView(new ArrayBuffer(8));

/** a + b rounded to odd: exact where it is, else whichever neighbour of the exact sum has an odd last bit. */
function addRoundToOdd(a: number, b: number): number {
  const [sum, error] = twoSum(a, b);
  if (error === 0) return sum;
  bits.setFloat64(0, sum);
  const low = bits.getUint32(4);
  if ((low & 1) === 1) return sum;
  // The other neighbour lies on the error's side: one unit in the last place up or down in magnitude.
  const away = (error > 0) === (sum > 0);
  const word = BigInt.asUintN(64, bits.getBigUint64(0) + (away ? 1n : -1n));
  bits.setBigUint64(0, word);
  return bits.getFloat64(0);
}
