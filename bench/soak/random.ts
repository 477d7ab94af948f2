import { seededRandom } from '../../test/helpers/seeded-random.ts';

/** The soak's chance: the same seed, the same business and the same kill schedule. */
export interface Chance {
  /** A number in [0, 1). */
  random(): number;
  /** A number in [lo, hi). */
  between(lo: number, hi: number): number;
  /** One of `items`, each as likely (list an item twice to make it twice as likely). */
  pick<T>(items: readonly T[]): T;
}

/** A seeded source of chance (test/helpers/seeded-random.ts). */
export function seededChance(seed: number): Chance {
  const random = seededRandom(seed);
  return {
    random,
    between: (lo, hi) => lo + random() * (hi - lo),
    pick: <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T,
  };
}
