/** The chains Kassa serves, as the interface spells them in requests. */
export const CHAINS = ['TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI'] as const;
export type Chain = (typeof CHAINS)[number];

/** Key and address families: EVM chains share one address format and one derivation path. */
export type Family = 'evm' | 'tron' | 'sui';

export const EVM_CHAINS = ['ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN'] as const satisfies readonly Chain[];

/** Narrows an untrusted value to a Chain. */
export function isChain(value: unknown): value is Chain {
  return typeof value === 'string' && (CHAINS as readonly string[]).includes(value);
}

/** The address family of a chain. */
export function familyOf(chain: Chain): Family {
  switch (chain) {
    case 'TRON':
      return 'tron';
    case 'SUI':
      return 'sui';
    case 'ETH':
    case 'BSC':
    case 'POLYGON':
    case 'AVAX_C_CHAIN':
      return 'evm';
  }
}

export type Network = 'mainnet' | 'testnet';
