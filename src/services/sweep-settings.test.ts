import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC } from '../../test/helpers/harness.ts';
import { ConfigError } from '../config/config-error.ts';
import { loadConfig } from '../config/load.ts';
import { createKeyRing } from '../keys/key-ring.ts';
import { minAmountBase, sweepSettings } from './sweep-settings.ts';

const keys = createKeyRing(TEST_MNEMONIC);
const TREASURY = '0x00000000000000000000000000000000000000aa';

describe('chains.<CHAIN>.sweep', () => {
  it('is off until a destination is set, with the defaults of the issue', async () => {
    const s = sweepSettings(await loadConfig({ env: {} }), 'ETH', keys);
    expect(s).toMatchObject({
      active: false,
      destination: null,
      maxFeeRatio: 0.05,
      schedule: '*/10 * * * *',
    });
    expect(s.off).toMatch(/destination is not set/);
  });

  it('takes the file, then KASSA_SWEEP_<CHAIN> (JSON merged over it) and KASSA_SWEEP_DESTINATION_<CHAIN>', async () => {
    const config = await loadConfig({
      env: {
        KASSA_SWEEP_ETH: '{"minAmount":{"USDT":"5"},"maxFeeRatio":0.02}',
        KASSA_SWEEP_DESTINATION_ETH: 'hot',
        KASSA_SWEEP_DESTINATION_TRON: 'none',
      },
      overrides: {
        chains: { ETH: { sweep: { schedule: '*/5 * * * *' } }, TRON: { sweep: { destination: 'hot' } } },
      },
    });
    const eth = sweepSettings(config, 'ETH', keys);
    expect(eth).toMatchObject({
      active: true,
      destination: keys.hotWallet('ETH').address,
      destinationKind: 'hot',
      maxFeeRatio: 0.02,
      schedule: '*/5 * * * *',
    });
    expect(minAmountBase(eth, 'usdt', 6)).toBe(5_000_000n);
    expect(minAmountBase(eth, 'USDC', 6)).toBe(0n);
    expect(sweepSettings(config, 'TRON', keys).active).toBe(false);
  });

  it('accepts a treasury address of the chain, and names the setting when it is not one', async () => {
    const ok = await loadConfig({ env: { KASSA_SWEEP_DESTINATION_ETH: TREASURY } });
    expect(sweepSettings(ok, 'ETH', keys)).toMatchObject({
      destinationKind: 'treasury',
      destination: '0x00000000000000000000000000000000000000AA',
    });
    const bad = await loadConfig({ env: { KASSA_SWEEP_DESTINATION_TRON: TREASURY } });
    expect(() => sweepSettings(bad, 'TRON', keys)).toThrow(
      /chains\.TRON\.sweep\.destination: .* is not a TRON address/,
    );
  });

  it('refuses a bad schedule, ratio or JSON with every problem listed', async () => {
    const error = await loadConfig({
      env: { KASSA_SWEEP_ETH: '{"schedule":"every day","maxFeeRatio":2}', KASSA_SWEEP_BSC: '{nope' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const text = String((error as Error).message);
    expect(text).toMatch(/schedule/);
    expect(text).toMatch(/maxFeeRatio/);
    expect(text).toMatch(/KASSA_SWEEP_BSC is not JSON/);
  });
});
