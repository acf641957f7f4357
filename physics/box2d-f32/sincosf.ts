/**
 * sinf and cosf as glibc computes them on x86-64 (sysdeps/ieee754/flt-32/s_sinf.c, s_cosf.c:
 * a double-precision polynomial, then one rounding to float), for |x| < 120: Box2D calls
 * sinf/cosf for every rotation, and glibc's results are not always the correctly rounded ones
 * (about 1.4% of inputs differ by one unit in the last place), so Math.sin rounded would drift
 * from Gymnasium's Box2D by a bit here and there. glibc picks an FMA build on CPUs that have
 * it; FMA only changes the double result in its last bits, which moves the float result in
 * about one input in 10^8.
 */
const bits = new Float32Array(1);
const word = new Uint32Array(bits.buffer);
const abstop12 = (y: number): number => {
  bits[0] = y;
  return (word[0] >>> 20) & 0x7ff;
};

const PIO4_TOP = abstop12(0.7853981852531433) /* 0x1.921fb6p-1f, pi/4 as a float */;
const TINY_TOP = abstop12(2 ** -12);
const LARGE_TOP = abstop12(120);
const SIGN = [1.0, -1.0, -1.0, 1.0];
const HPI_INV = 10680707.430881744;
const HPI = 1.5707963267948966;
// The two polynomial tables (the cosine polynomial negated in the second).
const C = [[1.0, -0.49999999725108224, 0.041666623324344516, -0.001388676379437604, 2.4390450703564542e-05],
  [-1.0, 0.49999999725108224, -0.041666623324344516, 0.001388676379437604, -2.4390450703564542e-05]];
const S1 = -0.16666654943701084;
const S2 = 0.008332178146138854;
const S3 = -0.00019517298981385725;

function poly(x: number, x2: number, table: number, n: number): number {
  if ((n & 1) === 0) {
    const x3 = x * x2;
    const s1 = S2 + x2 * S3;
    const x7 = x3 * x2;
    const s = x + x3 * S1;
    return Math.fround(s + x7 * s1);
  }
  const c = C[table];
  const x4 = x2 * x2;
  const c2 = c[3] + x2 * c[4];
  const c1 = c[0] + x2 * c[1];
  const x6 = x4 * x2;
  const cc = c1 + x4 * c[2];
  return Math.fround(cc + x6 * c2);
}

function sincos(y: number, cosine: boolean): number {
  const top = abstop12(y);
  if (top < PIO4_TOP) {
    if (top < TINY_TOP) return cosine ? 1 : y;
    return poly(y, y * y, 0, cosine ? 1 : 0);
  }
  if (top < LARGE_TOP) {
    // reduce_fast without round-to-int instructions: the quadrant from a scaled truncation.
    const r = y * HPI_INV;
    const n = (Math.trunc(r) + 0x800000) >> 24;
    const x = y - n * HPI;
    const s = SIGN[n & 3];
    return poly(x * s, x * x, n & 2 ? 1 : 0, cosine ? n ^ 1 : n);
  }
  // Box2D's angles never get here in LunarLander; the correctly rounded value is close enough.
  return Math.fround(cosine ? Math.cos(y) : Math.sin(y));
}

/** glibc's sinf of a float32 value. */
export const sinf = (y: number): number => sincos(y, false);
/** glibc's cosf of a float32 value. */
export const cosf = (y: number): number => sincos(y, true);
