import { describe, expect, it } from 'vitest';
import { energyOfSun, readEnergyTotals, sunForEnergy } from './delegation.ts';

const totals = { limit: 180_000_000_000n, weight: 2_411_528_185n };

describe('energy lending arithmetic', () => {
  it('lends enough staked TRX for the energy asked, rounded up, and never less than 1 TRX', () => {
    const sun = sunForEnergy(29_650n, totals);
    expect(energyOfSun(sun, totals)).toBeGreaterThanOrEqual(29_650n);
    expect(energyOfSun(sun - 1_000n, totals)).toBeLessThan(29_650n);
    expect(sunForEnergy(1n, totals)).toBe(1_000_000n);
  });

  it('reads the network totals, and none from a node that prints none', () => {
    expect(readEnergyTotals({ TotalEnergyLimit: 180_000_000_000, TotalEnergyWeight: 2_411_528_185 })).toEqual(
      totals,
    );
    expect(readEnergyTotals({})).toBeNull();
  });
});
