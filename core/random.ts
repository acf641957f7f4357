/**
 * A small seeded generator (sfc32 seeded through splitmix32): reproducible runs from one integer,
 * identical in every process. Math.random cannot be seeded, so nothing here uses it.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** The generator's whole state, to carry it across processes (a seed-run's checkpoint). */
  state(): Uint32Array {
    return Uint32Array.of(this.a, this.b, this.c, this.d);
  }

  /** Continues exactly where the generator that gave `state` stood. */
  restore(state: ArrayLike<number>): void {
    if (state.length !== 4) throw new RangeError(`a Random state has 4 words, not ${state.length}`);
    [this.a, this.b, this.c, this.d] = [state[0] | 0, state[1] | 0, state[2] | 0, state[3] | 0];
  }

  /** Uniform 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1) with 53 bits. */
  next(): number {
    return (this.uint32() * 2 ** 21 + (this.uint32() >>> 11)) / 2 ** 53;
  }

  uniform(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T extends { length: number; [i: number]: number }>(xs: T): T {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = xs[i];
      xs[i] = xs[j];
      xs[j] = tmp;
    }
    return xs;
  }
}
