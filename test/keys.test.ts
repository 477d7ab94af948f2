import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { TronWeb } from 'tronweb';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { isEvmAddress, isSuiAddress, isTronAddress } from '../src/keys/address-format.ts';
import { createKeyRing } from '../src/keys/key-ring.ts';

const MNEMONIC = 'test test test test test test test test test test test junk';
const ring = createKeyRing(MNEMONIC);

describe('key derivation matches each chain SDK', () => {
  it("derives EVM deposit addresses exactly as viem does (m/44'/60'/0'/0/i)", () => {
    for (const i of [0, 1, 7, 1000]) {
      expect(ring.depositAddress('evm', i)).toBe(mnemonicToAccount(MNEMONIC, { addressIndex: i }).address);
    }
  });

  it('derives per-chain EVM hot wallets on account 1 as viem does', () => {
    expect(ring.hotWallet('ETH').address).toBe(
      mnemonicToAccount(MNEMONIC, { accountIndex: 1, addressIndex: 0 }).address,
    );
    expect(ring.hotWallet('BSC').address).toBe(
      mnemonicToAccount(MNEMONIC, { accountIndex: 1, addressIndex: 1 }).address,
    );
    expect(ring.hotWallet('AVAX_C_CHAIN').address).toBe(
      mnemonicToAccount(MNEMONIC, { accountIndex: 1, addressIndex: 3 }).address,
    );
    const key = `0x${ring.hotWallet('POLYGON').privateKey.toString('hex')}` as const;
    expect(mnemonicToAccount(MNEMONIC, { accountIndex: 1, addressIndex: 2 }).getHdKey().privateKey).toEqual(
      Uint8Array.from(Buffer.from(key.slice(2), 'hex')),
    );
  });

  it("derives TRON addresses exactly as tronweb does (m/44'/195'/…)", () => {
    for (const i of [0, 3, 250]) {
      expect(ring.depositAddress('tron', i)).toBe(
        TronWeb.fromMnemonic(MNEMONIC, `m/44'/195'/0'/0/${i}`).address,
      );
    }
    expect(ring.hotWallet('TRON').address).toBe(TronWeb.fromMnemonic(MNEMONIC, "m/44'/195'/1'/0/0").address);
  });

  it("derives SUI ed25519 addresses exactly as @mysten/sui does (m/44'/784'/…)", () => {
    for (const i of [0, 5]) {
      expect(ring.depositAddress('sui', i)).toBe(
        Ed25519Keypair.deriveKeypair(MNEMONIC, `m/44'/784'/0'/0'/${i}'`).toSuiAddress(),
      );
    }
    expect(ring.hotWallet('SUI').address).toBe(
      Ed25519Keypair.deriveKeypair(MNEMONIC, "m/44'/784'/1'/0'/0'").toSuiAddress(),
    );
  });

  it('never hands out the same address for two indexes, and every address is valid for its family', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const evm = ring.depositAddress('evm', i);
      const tron = ring.depositAddress('tron', i);
      const sui = ring.depositAddress('sui', i);
      expect(isEvmAddress(evm) && isTronAddress(tron) && isSuiAddress(sui)).toBe(true);
      for (const a of [evm, tron, sui]) {
        expect(seen.has(a)).toBe(false);
        seen.add(a);
      }
    }
  });
});

describe('address formats', () => {
  it('accepts real TRON addresses and rejects a broken checksum', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isTronAddress('0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBe(false);
  });

  it('checks EIP-55 only on mixed-case EVM addresses', () => {
    expect(isEvmAddress('0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBe(true);
    expect(isEvmAddress('0xdac17f958d2ee523a2206206994597c13d831ec7')).toBe(true);
    expect(isEvmAddress('0xdAC17F958D2ee523a2206206994597C13D831eC7')).toBe(false);
    expect(isEvmAddress('0xdac17f958d2ee523a2206206994597c13d831ec')).toBe(false);
  });

  it('accepts 64-hex Sui addresses only', () => {
    expect(isSuiAddress(`0x${'ab'.repeat(32)}`)).toBe(true);
    expect(isSuiAddress(`0x${'ab'.repeat(20)}`)).toBe(false);
  });
});
