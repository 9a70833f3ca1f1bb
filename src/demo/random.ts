// Deterministic seeded PRNG shared by every demo generator.
//
// Algorithm: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit state), seeded
// by hashing the seed's string form with cyrb128. Everything is 32-bit integer arithmetic
// (Math.imul, shifts, `| 0`), so a given seed yields the same sequence on every platform and
// Node version. `normal()` additionally uses Math.log/Math.sqrt/Math.cos; V8 implements those
// with its own fdlibm port, so they are reproducible across platforms too.
//
// Seeds: `createRng(42)` and `createRng('42')` are the same seed (the seed is hashed as text).

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number;
  /** Uniform float in [lo, hi). */
  float(lo: number, hi: number): number;
  /** One element of a non-empty array, uniformly. */
  pick<T>(arr: readonly T[]): T;
  /** Standard normal variate (Box-Muller), optionally scaled: mean + sd * z. */
  normal(mean?: number, sd?: number): number;
  /** True with probability p (p <= 0 never, p >= 1 always). */
  chance(p: number): boolean;
  /** A shuffled copy of the array (Fisher-Yates). */
  shuffle<T>(arr: readonly T[]): T[];
  /**
   * An independent generator derived from this generator's seed and `label`. It does not consume
   * or depend on this generator's state, so `fork('AAPL')` is the same stream no matter how many
   * numbers were drawn before: handy for per-ticker streams that stay stable when others change.
   */
  fork(label: string | number): Rng;
  /** The seed text this generator was created from. */
  readonly seed: string;
}

/** cyrb128: a fast, well-mixed 128-bit string hash (public domain). */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A 32-bit unsigned hash of a string (first word of cyrb128). Stable across runs. */
export function hash32(str: string): number {
  return cyrb128(str)[0];
}

export function createRng(seed: number | string): Rng {
  const seedText = String(seed);
  let [a, b, c, d] = cyrb128(seedText);

  const nextU32 = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    let t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    t >>>= 0;
    return t;
  };
  // Discard the first outputs so that similar seeds diverge fully.
  for (let i = 0; i < 15; i++) nextU32();

  let spare: number | undefined;

  const next = (): number => nextU32() / 4294967296;

  const rng: Rng = {
    seed: seedText,
    next,
    int(lo: number, hi: number): number {
      if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
        throw new RangeError(`rng.int: invalid range [${lo}, ${hi}]`);
      }
      return lo + Math.floor(next() * (hi - lo + 1));
    },
    float(lo: number, hi: number): number {
      return lo + next() * (hi - lo);
    },
    pick<T>(arr: readonly T[]): T {
      if (arr.length === 0) throw new RangeError('rng.pick: empty array');
      return arr[Math.floor(next() * arr.length)] as T;
    },
    normal(mean = 0, sd = 1): number {
      let z: number;
      if (spare !== undefined) {
        z = spare;
        spare = undefined;
      } else {
        // 1 - next() is in (0, 1], so the log is finite.
        const u1 = 1 - next();
        const u2 = next();
        const r = Math.sqrt(-2 * Math.log(u1));
        const theta = 2 * Math.PI * u2;
        z = r * Math.cos(theta);
        spare = r * Math.sin(theta);
      }
      return mean + sd * z;
    },
    chance(p: number): boolean {
      return next() < p;
    },
    shuffle<T>(arr: readonly T[]): T[] {
      const out = arr.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
    fork(label: string | number): Rng {
      return createRng(`${seedText}/${String(label)}`);
    },
  };
  return rng;
}
