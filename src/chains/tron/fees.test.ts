import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PARAMS,
  feeLimitFor,
  readChainParams,
  readResources,
  tokenTransferBurn,
  trxTransferBurn,
} from './fees.ts';

const none = readResources({ address: '41aa' }, {});

describe('TRON fees', () => {
  it('reads prices from getchainparameters and keeps mainnet defaults for missing keys', () => {
    const params = readChainParams({
      chainParameter: [
        { key: 'getEnergyFee', value: 420 },
        { key: 'getTransactionFee', value: 1000 },
      ],
    });
    expect(params).toEqual({ ...DEFAULT_PARAMS, energyPrice: 420n });
  });

  it('sets fee_limit at twice the estimate in sun, never above the cap or the network maximum', () => {
    expect(feeLimitFor(64_285n, DEFAULT_PARAMS, 100_000_000n)).toBe(12_857_000n);
    expect(feeLimitFor(1_000_000n, DEFAULT_PARAMS, 100_000_000n)).toBe(100_000_000n);
    expect(feeLimitFor(1_000_000n, { ...DEFAULT_PARAMS, maxFeeLimit: 50_000_000n }, 100_000_000n)).toBe(
      50_000_000n,
    );
  });

  it('burns TRX only for energy beyond the staked energy, plus bandwidth unless staked (or free, when counted) covers it', () => {
    expect(tokenTransferBurn(29_650n, none, DEFAULT_PARAMS, false)).toBe(2_965_000n + 350_000n);
    const staked = readResources(
      { address: '41aa' },
      { EnergyLimit: 20_000, EnergyUsed: 1_000, NetLimit: 5_000 },
    );
    expect(tokenTransferBurn(29_650n, staked, DEFAULT_PARAMS, false)).toBe(1_065_000n);
    const free = readResources({ address: '41aa' }, { freeNetLimit: 600, freeNetUsed: 100 });
    expect(tokenTransferBurn(14_650n, free, DEFAULT_PARAMS, true)).toBe(1_465_000n);
    expect(tokenTransferBurn(14_650n, free, DEFAULT_PARAMS, false)).toBe(1_465_000n + 350_000n);
  });

  it('charges a TRX transfer that creates its recipient 1 TRX + 0.1 TRX, an ordinary one its bandwidth', () => {
    expect(trxTransferBurn(false, none, DEFAULT_PARAMS, true)).toBe(1_100_000n);
    expect(trxTransferBurn(true, none, DEFAULT_PARAMS, false)).toBe(300_000n);
    const stakedNet = readResources({ address: '41aa' }, { NetLimit: 1_000 });
    expect(trxTransferBurn(false, stakedNet, DEFAULT_PARAMS, false)).toBe(1_000_000n);
    expect(trxTransferBurn(true, stakedNet, DEFAULT_PARAMS, false)).toBe(0n);
  });

  it('reads a missing account as one that does not exist and holds nothing', () => {
    expect(readResources({}, {})).toEqual({
      exists: false,
      balance: 0n,
      energyLeft: 0n,
      stakedNetLeft: 0n,
      freeNetLeft: 0n,
    });
  });
});
