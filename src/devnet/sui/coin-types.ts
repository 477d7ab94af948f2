/**
 * Coin types the fake knows: SUI (9 decimals) and a test USDC (6 decimals) published at a package id
 * derived from the chain seed. Types are kept in the normalised long form the gRPC API prints
 * (`0x000…0002::sui::SUI`); inputs may use any spelling.
 */
import { normalizeStructTag, normalizeSuiAddress, parseStructTag, toHex } from '@mysten/sui/utils';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import { blake2b256 } from './hashing.ts';

/** `0x2::sui::SUI` in long form. */
export const SUI_TYPE = normalizeStructTag('0x2::sui::SUI');

const FRAMEWORK = normalizeSuiAddress('0x2');

/** What GetCoinInfo reports about a coin type. */
export interface CoinInfo {
  coinType: string;
  decimals: number;
  name: string;
  symbol: string;
  description: string;
  iconUrl: string;
}

/** The test USDC package id for a chain seed: deterministic, so restarts and other processes agree. */
export function usdcPackageId(seed: string): string {
  return normalizeSuiAddress(toHex(blake2b256(new TextEncoder().encode(`kassa-fake-sui/usdc/${seed}`))));
}

/** The coin registry of a fake chain: SUI and the test USDC. */
export function coinRegistry(usdcType: string): Map<string, CoinInfo> {
  return new Map<string, CoinInfo>([
    [SUI_TYPE, { coinType: SUI_TYPE, decimals: 9, name: 'Sui', symbol: 'SUI', description: '', iconUrl: '' }],
    [
      usdcType,
      {
        coinType: usdcType,
        decimals: 6,
        name: 'USDC',
        symbol: 'USDC',
        description: 'Test USDC of the Kassa fake Sui node',
        iconUrl: '',
      },
    ],
  ]);
}

const STRUCT_TAG = /^(0x)?[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(<.+>)?$/;

/** The long form of a struct tag; throws INVALID_ARGUMENT if it is not one. */
export function normalizeType(type: string): string {
  if (!STRUCT_TAG.test(type.trim())) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid type: ${type}`);
  try {
    return normalizeStructTag(type.trim());
  } catch {
    throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid type: ${type}`);
  }
}

/** `0x2::coin::Coin<T>` in long form. */
export function coinObjectType(coinType: string): string {
  return `${FRAMEWORK}::coin::Coin<${coinType}>`;
}

/** `0x2::coin::TreasuryCap<T>` in long form. */
export function treasuryCapType(coinType: string): string {
  return `${FRAMEWORK}::coin::TreasuryCap<${coinType}>`;
}

/**
 * Whether an object type matches a ListOwnedObjects `object_type` filter. A filter without type
 * parameters (`0x2::coin::Coin`) matches every instantiation, as on the real node.
 */
export function typeMatches(objectType: string, filter: string): boolean {
  const wanted = parseStructTag(filter);
  if (wanted.typeParams.length > 0) return normalizeStructTag(filter) === objectType;
  const actual = parseStructTag(objectType);
  return actual.address === wanted.address && actual.module === wanted.module && actual.name === wanted.name;
}

/** The framework address in long form. */
export const SUI_FRAMEWORK = FRAMEWORK;
