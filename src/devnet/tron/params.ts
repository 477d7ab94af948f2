/**
 * Network parameters of the fake TRON node: a simplified copy of mainnet in 2026.
 * Section numbers refer to ../shared/reference/chains.md part A.
 *
 * Bandwidth (A.8, A.4 gettransactioninfobyblocknum)
 * - A transaction costs `bytes` = its protobuf size without `ret` + 64 (java-tron's
 *   MAX_RESULT_SIZE_IN_TX). That gives 267 for a TRX transfer and 345 for a TRC-20 transfer,
 *   the sizes in the A.4 captures.
 * - Paid from staked bandwidth first, then from the 600 free bytes every account gets per 24 h
 *   window (all or nothing per transaction), else burnt at 1 000 sun per byte.
 * - A TRX transfer that creates its recipient does not use free bandwidth: it burns 0.1 TRX
 *   (`net_fee: 100000`) unless staked bandwidth covers it, plus the 1 TRX creation fee in
 *   `fee` (A.4: `"fee": 1100000, "receipt": {"net_fee": 100000}`).
 *
 * Energy (A.8)
 * - Burnt at 100 sun per energy when the account has no staked energy left.
 * - TRC-20 `transfer` to a holder with a non-zero balance: 14 650; to a zero balance (new storage
 *   slot): 29 650 (the base costs under USDT's dynamic factor in the A.8 receipts:
 *   31 895 − 17 245 and 130 285 − 100 635). The dynamic energy factor itself is not modelled.
 * - `balanceOf` costs 935 (A.4 triggerconstantcontract capture); the other figures in
 *   TRC20_ENERGY are illustrative.
 * - Energy limit of a call = min(staked energy left + balance / price, fee_limit / price). When
 *   the call needs more it is still included, fails with OUT_OF_ENERGY and burns up to the limit.
 *
 * Limits: fee_limit ≤ 15 000 TRX (A.8); expiration ≤ head + 24 h and > next slot (A.3).
 */
export const PARAMS = {
  /** sun burnt per energy unit (getEnergyFee). */
  energyPriceSun: 100n,
  /** sun burnt per byte of bandwidth (getTransactionFee). */
  bandwidthPriceSun: 1_000n,
  /** free bandwidth per account per window (getFreeNetLimit). */
  freeNetLimit: 600,
  /** bandwidth part of creating an account by a TRX transfer, burnt in `net_fee` (getCreateAccountFee). */
  createAccountNetFeeSun: 100_000n,
  /** creation fee charged by TransferContract for a new recipient (getCreateNewAccountFeeInSystemContract). */
  createNewAccountFeeSun: 1_000_000n,
  /** bytes added to every contract for its result (java-tron MAX_RESULT_SIZE_IN_TX). */
  resultSizeBytes: 64,
  /** largest accepted fee_limit in sun (getMaxFeeLimit). */
  maxFeeLimitSun: 15_000_000_000n,
  /** resource usage recovers linearly over this window (24 h). */
  resourceWindowMs: 86_400_000,
  /** java-tron refuses expirations further ahead of the head block than this. */
  maxExpirationAheadMs: 86_400_000,
  /** expiration the node sets on transactions it builds: head block time + 60 s. */
  builtExpirationMs: 60_000,
  /** largest accepted transaction (java-tron TRANSACTION_MAX_BYTE_SIZE). */
  maxTransactionBytes: 500 * 1024,
  /** reported block version (the capture in A.4 shows 34). */
  blockVersion: 34,
  /** number of fake super representatives taking turns to produce blocks (A.7). */
  witnessCount: 27,
  /** totals printed by getaccountresource (values of the A.4 example). */
  totalNetLimit: 43_200_000_000n,
  totalNetWeight: 68_305_209_098n,
  totalEnergyLimit: 180_000_000_000n,
  totalEnergyWeight: 2_411_528_185n,
} as const;

/** Energy per TRC-20 function in the native token; see the header comment for sources. */
export const TRC20_ENERGY = {
  transferToHolder: 14_650,
  transferToNewHolder: 29_650,
  transferFromExtra: 2_000,
  approve: 22_000,
  revert: 650,
  balanceOf: 935,
  allowance: 1_000,
  totalSupply: 405,
  decimals: 264,
  symbol: 700,
  name: 700,
} as const;
