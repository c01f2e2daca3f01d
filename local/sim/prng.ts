/** A seeded source of uniform and normal random numbers (sfc32; deterministic for a seed). */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
}

/** murmur3's 32-bit finalizer: spreads the bits of `h`. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines two 32-bit values into one well-mixed 32-bit seed. */
export function mixSeeds(a: number, b: number): number {
  return fmix32((Math.imul(fmix32(a), 0x9e3779b1) ^ fmix32(b + 0x7f4a7c15)) >>> 0);
}

/** A 32-bit hash of a string (FNV-1a, then mixed). */
export function hashString(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Creates a generator from a 32-bit seed. */
export function createRng(seed: number): Rng {
  let a = fmix32(seed ^ 0xdeadbeef);
  let b = fmix32(seed + 0x41c64e6d);
  let c = fmix32(seed ^ 0x6b43a9b5);
  let d = 1;
  let spare: number | undefined;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i += 1) next();
  return {
    next,
    normal() {
      if (spare !== undefined) {
        const value = spare;
        spare = undefined;
        return value;
      }
      const u = 1 - next();
      const v = next();
      const radius = Math.sqrt(-2 * Math.log(u));
      spare = radius * Math.sin(2 * Math.PI * v);
      return radius * Math.cos(2 * Math.PI * v);
    },
  };
}
