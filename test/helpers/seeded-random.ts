/**
 * A small seeded generator (mulberry32) for tests and benchmarks: numbers in [0, 1), the same
 * sequence for the same seed, so a failing run is replayed from its seed and a benchmark seeds the
 * same data every time. Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
