import { mnemonicToSeedSync } from '@scure/bip39';
import type { Chain, Family } from '../domain/chains.ts';
import { familyOf } from '../domain/chains.ts';
import { secp256k1AccountId, suiAddress, toChecksumAddress, tronAddress } from './encode.ts';
import {
  ed25519Derive,
  ed25519PublicKey,
  type Secp256k1Node,
  secp256k1ChildKey,
  secp256k1Derive,
  secp256k1PublicKey,
} from './hd.ts';

/**
 * Derivation paths (README "Keys"): deposits use account 0 of each coin type, hot wallets account 1.
 *   EVM  deposit m/44'/60'/0'/0/i        hot wallet m/44'/60'/1'/0/c   (c = the chain's slot below)
 *   TRON deposit m/44'/195'/0'/0/i       hot wallet m/44'/195'/1'/0/0
 *   SUI  deposit m/44'/784'/0'/0'/i'     hot wallet m/44'/784'/1'/0'/0'
 */
export const DERIVATION = {
  evm: { deposit: "m/44'/60'/0'/0", hot: "m/44'/60'/1'/0" },
  tron: { deposit: "m/44'/195'/0'/0", hot: "m/44'/195'/1'/0" },
  sui: { deposit: "m/44'/784'/0'/0'", hot: "m/44'/784'/1'/0'/0'" },
} as const;

/** Each EVM chain has its own hot wallet, so nonces and balances never mix. */
export const EVM_HOT_SLOT: Record<'ETH' | 'BSC' | 'POLYGON' | 'AVAX_C_CHAIN', number> = {
  ETH: 0,
  BSC: 1,
  POLYGON: 2,
  AVAX_C_CHAIN: 3,
};

export interface HotWallet {
  address: string;
  /** 32-byte private key (secp256k1 scalar or ed25519 seed). Never log, never store. */
  privateKey: Buffer;
}

/** The operator's keys, derived from the mnemonic on demand; only indexes are ever stored. */
export interface KeyRing {
  /** The deposit address with derivation index `index` for a family. */
  depositAddress(family: Family, index: number): string;
  /** The chain's hot wallet (payout source). */
  hotWallet(chain: Chain): HotWallet;
  /** The private key of a deposit address, for sweeping. */
  depositKey(family: Family, index: number): Buffer;
}

/** Builds a key ring from a BIP-39 mnemonic (validated by config). Computes the seed once. */
export function createKeyRing(mnemonic: string): KeyRing {
  const seed = mnemonicToSeedSync(mnemonic);
  let evmAccount: Secp256k1Node | null = null;
  let tronAccount: Secp256k1Node | null = null;
  const hotCache = new Map<Chain, HotWallet>();

  const secpAccount = (family: 'evm' | 'tron'): Secp256k1Node => {
    if (family === 'evm') {
      evmAccount ??= secp256k1Derive(seed, DERIVATION.evm.deposit);
      return evmAccount;
    }
    tronAccount ??= secp256k1Derive(seed, DERIVATION.tron.deposit);
    return tronAccount;
  };

  const secpAddress = (family: 'evm' | 'tron', privateKey: Buffer): string => {
    const id = secp256k1AccountId(secp256k1PublicKey(privateKey, false));
    return family === 'evm' ? toChecksumAddress(id) : tronAddress(id);
  };

  const depositKey = (family: Family, index: number): Buffer => {
    if (!Number.isInteger(index) || index < 0 || index >= 0x80000000)
      throw new Error(`Bad deposit index ${index}`);
    if (family === 'sui') return ed25519Derive(seed, `${DERIVATION.sui.deposit}/${index}'`).privateKey;
    return secp256k1ChildKey(secpAccount(family), index).privateKey;
  };

  return {
    depositKey,
    depositAddress(family, index) {
      const key = depositKey(family, index);
      return family === 'sui' ? suiAddress(ed25519PublicKey(key)) : secpAddress(family, key);
    },
    hotWallet(chain) {
      const cached = hotCache.get(chain);
      if (cached) return cached;
      const family = familyOf(chain);
      let wallet: HotWallet;
      if (family === 'sui') {
        const key = ed25519Derive(seed, DERIVATION.sui.hot).privateKey;
        wallet = { address: suiAddress(ed25519PublicKey(key)), privateKey: key };
      } else {
        const slot = family === 'evm' ? EVM_HOT_SLOT[chain as keyof typeof EVM_HOT_SLOT] : 0;
        const key = secp256k1Derive(seed, `${DERIVATION[family].hot}/${slot}`).privateKey;
        wallet = { address: secpAddress(family, key), privateKey: key };
      }
      hotCache.set(chain, wallet);
      return wallet;
    },
  };
}
