/** The soak's chance: the same seed, the same business and the same kill schedule. */
export interface Chance {
  /** A number in [0, 1). */
  random(): number;
  /** A number in [lo, hi). */
  between(lo: number, hi: number): number;
  /** One of `items`, each as likely (list an item twice to make it twice as likely). */
  pick<T>(items: readonly T[]): T;
}

/** A seeded source of chance (mulberry32). */
export function seededChance(seed: number): Chance {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random,
    between: (lo, hi) => lo + random() * (hi - lo),
    pick: <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T,
  };
}
