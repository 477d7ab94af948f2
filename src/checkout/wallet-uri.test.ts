import { describe, expect, it } from 'vitest';
import { walletUri } from './wallet-uri.ts';

const evmDeposit = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('wallet URI in the QR code', () => {
  it('is an EIP-681 token transfer for an EVM token, amount in base units', () => {
    expect(
      walletUri(
        {
          chain: 'BSC',
          address: evmDeposit,
          tokenContract: '0x55d398326f99059fF775485246999027B3197955',
          amountBase: 12_500000000000000000n,
        },
        56,
      ),
    ).toEqual({
      uri: `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${evmDeposit}&uint256=12500000000000000000`,
      carriesAmount: true,
    });
  });

  it('is an EIP-681 value transfer in wei for a native EVM coin', () => {
    expect(
      walletUri({ chain: 'ETH', address: evmDeposit, tokenContract: null, amountBase: 10n ** 16n }, 1).uri,
    ).toBe(`ethereum:${evmDeposit}@1?value=10000000000000000`);
  });

  it('leaves out @chainId when the config has none', () => {
    expect(
      walletUri({ chain: 'POLYGON', address: evmDeposit, tokenContract: null, amountBase: 5n }, undefined)
        .uri,
    ).toBe(`ethereum:${evmDeposit}?value=5`);
  });

  it('is the plain address for TRON and SUI', () => {
    const tron = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
    const sui = `0x${'1a'.repeat(32)}`;
    expect(
      walletUri(
        { chain: 'TRON', address: tron, tokenContract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amountBase: 1n },
        undefined,
      ),
    ).toEqual({ uri: tron, carriesAmount: false });
    expect(
      walletUri({ chain: 'SUI', address: sui, tokenContract: null, amountBase: 1n }, undefined).uri,
    ).toBe(sui);
  });
});
