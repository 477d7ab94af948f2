import type { NodeJson } from './http.ts';
import { int64 } from './wire.ts';

/**
 * TRON's resource model in the simplified form a payout needs (chains.md A.8): energy for the
 * TRC-20 call (staked energy first, else TRX burnt at the energy price), bandwidth for the bytes
 * (staked, then the free daily allowance, else TRX burnt per byte), and the cost of a TRX transfer
 * that creates its recipient (1 TRX creation fee + 0.1 TRX bandwidth, no free bandwidth).
 */

/** Network prices, read from /wallet/getchainparameters. All in sun. */
export interface ChainParams {
  /** sun per energy unit (getEnergyFee) */
  energyPrice: bigint;
  /** sun per byte of bandwidth (getTransactionFee) */
  bandwidthPrice: bigint;
  /** creation fee of a TRX transfer to a new account (getCreateNewAccountFeeInSystemContract) */
  createAccountFee: bigint;
  /** bandwidth fee burnt instead of free bandwidth when a transfer creates an account (getCreateAccountFee) */
  createAccountNetFee: bigint;
  /** largest fee_limit the network accepts (getMaxFeeLimit) */
  maxFeeLimit: bigint;
}

/** Mainnet values in 2026, used for any parameter the node does not list. */
export const DEFAULT_PARAMS: ChainParams = {
  energyPrice: 100n,
  bandwidthPrice: 1_000n,
  createAccountFee: 1_000_000n,
  createAccountNetFee: 100_000n,
  maxFeeLimit: 15_000_000_000n,
};

/** Bytes budgeted per transaction (a USDT transfer is ≈345 with the 64-byte result, a TRX transfer ≈267). */
export const TOKEN_TX_BYTES = 350n;
export const TRX_TX_BYTES = 300n;
/**
 * fee_limit = energy estimate × this × price. The estimate is for the recipient as it is now; a
 * recipient that empties its balance before inclusion needs a new storage slot (≈2× energy, A.8),
 * and the dynamic energy factor can rise between estimate and inclusion.
 */
export const FEE_LIMIT_MARGIN = 2n;
/** Cap on fee_limit unless configured otherwise: 100 TRX (tronweb defaults to 150, ledger-live uses 50). */
export const DEFAULT_FEE_LIMIT_CAP = 100_000_000n;
/** Energy assumed for a transfer the node cannot simulate: USDT to a new holder at the maximum energy factor (A.8). */
export const FALLBACK_TRANSFER_ENERGY = 130_285n;

/** Reads the prices out of a getchainparameters answer. */
export function readChainParams(json: NodeJson): ChainParams {
  const entries: NodeJson[] = Array.isArray(json?.chainParameter) ? json.chainParameter : [];
  const get = (key: string, fallback: bigint): bigint => {
    const entry = entries.find((e) => e?.key === key);
    return entry === undefined ? fallback : int64(entry.value);
  };
  return {
    energyPrice: get('getEnergyFee', DEFAULT_PARAMS.energyPrice),
    bandwidthPrice: get('getTransactionFee', DEFAULT_PARAMS.bandwidthPrice),
    createAccountFee: get('getCreateNewAccountFeeInSystemContract', DEFAULT_PARAMS.createAccountFee),
    createAccountNetFee: get('getCreateAccountFee', DEFAULT_PARAMS.createAccountNetFee),
    maxFeeLimit: get('getMaxFeeLimit', DEFAULT_PARAMS.maxFeeLimit),
  };
}

/** What an account holds to pay with, from getaccount + getaccountresource. */
export interface Resources {
  exists: boolean;
  /** TRX in sun */
  balance: bigint;
  /** staked or delegated energy not used yet */
  energyLeft: bigint;
  /** staked or delegated bandwidth not used yet */
  stakedNetLeft: bigint;
  /** free daily bandwidth not used yet */
  freeNetLeft: bigint;
}

/** Reads an account and its resources (either may be `{}` for an account that does not exist). */
export function readResources(account: NodeJson, resource: NodeJson): Resources {
  const exists = typeof account?.address === 'string';
  const left = (limit: unknown, used: unknown) => {
    const rest = int64(limit) - int64(used);
    return rest > 0n ? rest : 0n;
  };
  return {
    exists,
    balance: int64(account?.balance),
    energyLeft: left(resource?.EnergyLimit, resource?.EnergyUsed),
    stakedNetLeft: left(resource?.NetLimit, resource?.NetUsed),
    freeNetLeft: exists ? left(resource?.freeNetLimit, resource?.freeNetUsed) : 0n,
  };
}

/** The fee_limit of a TRC-20 transfer estimated at `energy`: with margin, never above the cap or the network's maximum. */
export function feeLimitFor(energy: bigint, params: ChainParams, cap: bigint): bigint {
  const want = energy * FEE_LIMIT_MARGIN * params.energyPrice;
  const ceiling = cap < params.maxFeeLimit ? cap : params.maxFeeLimit;
  return want < ceiling ? want : ceiling;
}

/**
 * Sun burnt for `bytes` of bandwidth. `useFree` counts the free daily allowance (exact for the next
 * transaction); without it only staked bandwidth is counted (pessimistic, for several queued payouts).
 */
export function bandwidthBurn(bytes: bigint, r: Resources, params: ChainParams, useFree: boolean): bigint {
  if (r.stakedNetLeft >= bytes) return 0n;
  if (useFree && r.freeNetLeft >= bytes) return 0n;
  return bytes * params.bandwidthPrice;
}

/** Sun a TRC-20 transfer needing `energy` burns: energy beyond the staked part at the price, plus bandwidth. */
export function tokenTransferBurn(
  energy: bigint,
  r: Resources,
  params: ChainParams,
  useFree: boolean,
): bigint {
  const burnt = energy > r.energyLeft ? energy - r.energyLeft : 0n;
  return burnt * params.energyPrice + bandwidthBurn(TOKEN_TX_BYTES, r, params, useFree);
}

/**
 * Sun a TRX transfer burns besides its amount: bandwidth, or — when it creates the recipient —
 * the creation fee plus the creation bandwidth fee (free bandwidth does not apply then).
 */
export function trxTransferBurn(
  recipientExists: boolean,
  r: Resources,
  params: ChainParams,
  useFree: boolean,
): bigint {
  if (recipientExists) return bandwidthBurn(TRX_TX_BYTES, r, params, useFree);
  const net = r.stakedNetLeft >= TRX_TX_BYTES ? 0n : params.createAccountNetFee;
  return params.createAccountFee + net;
}
