import type { Block, IncludedTx } from './block.ts';
import { type HexAddress, keccakHex, utf8Hex } from './encoding.ts';
import { i64 } from './json.ts';
import { PARAMS } from './params.ts';
import { type Account, energyLimitOf, energyUsedAt, freeNetUsedAt, netUsedAt } from './state.ts';
import { renderRawData, type Tx } from './transaction.ts';
import { type Token, tokenAbi } from './trc20.ts';

/*
 * java-tron's JSON for each message, printed proto3-style: a field at its default value (0, '',
 * false, empty list) is left out, so renderers set it to undefined. int64 fields are bigints
 * (see json.ts). Addresses are 21-byte hex (visible=false).
 */

const ACTIVE_OPERATIONS = '7fff1fc0033efb0f000000000000000000000000000000000000000000000000';
const WINDOW_SIZE = 28_800_000n;
const PLACEHOLDER_BYTECODE = 'fe';

/** `protocol.Block`; `detail: false` leaves `transactions` out, as does an empty block. */
export function renderBlock(block: Block, detail = true): Record<string, unknown> {
  return {
    blockID: block.id,
    block_header: {
      raw_data: {
        number: i64(block.number),
        txTrieRoot: block.txTrieRoot,
        witness_address: block.witness,
        parentHash: block.parentId,
        version: PARAMS.blockVersion,
        timestamp: i64(block.timestamp),
      },
      witness_signature: block.witnessSignature,
    },
    transactions: detail && block.txs.length > 0 ? block.txs.map(renderIncluded) : undefined,
  };
}

/** A transaction as a block (and gettransactionbyid) shows it, with `ret[0].contractRet`. */
export function renderIncluded(included: IncludedTx): Record<string, unknown> {
  return {
    ret: [{ fee: i64(included.outcome.retFee), contractRet: included.outcome.contractRet }],
    ...renderTx(included.tx),
  };
}

/** `signature`, `txID`, `raw_data`, `raw_data_hex` of a transaction. */
export function renderTx(tx: Tx): Record<string, unknown> {
  return {
    signature: tx.signatures.length === 0 ? undefined : tx.signatures,
    txID: tx.txID,
    raw_data: renderRawData(tx.raw),
    raw_data_hex: tx.rawDataHex,
  };
}

/** An unsigned transaction as the builder endpoints return it. */
export function renderUnsigned(tx: Tx): Record<string, unknown> {
  return { visible: false, ...renderTx(tx) };
}

/**
 * `protocol.TransactionInfo` (A.4): `fee` and zero receipt fields omitted, `receipt.result` only
 * for contract calls, `log` only when non-empty, `result: "FAILED"` + hex `resMessage` on failure.
 */
export function renderInfo(included: IncludedTx, block: Block): Record<string, unknown> {
  const { outcome, tx } = included;
  const failed = outcome.contractRet !== 'SUCCESS';
  return {
    id: tx.txID,
    fee: i64(outcome.fee),
    blockNumber: i64(block.number),
    blockTimeStamp: i64(block.timestamp),
    contractResult: [outcome.contractResult],
    contract_address: outcome.contractAddress,
    receipt: {
      energy_usage: i64(outcome.energyUsage),
      energy_fee: i64(outcome.energyFee),
      energy_usage_total: i64(outcome.energyUsageTotal),
      net_usage: i64(outcome.netUsage),
      net_fee: i64(outcome.netFee),
      result: outcome.contractAddress === undefined ? undefined : outcome.contractRet,
    },
    log: outcome.logs.length === 0 ? undefined : outcome.logs,
    result: failed ? 'FAILED' : undefined,
    resMessage: failed && outcome.resMessage !== undefined ? utf8Hex(outcome.resMessage) : undefined,
  };
}

/** `protocol.Account` at time `now` (usage recovered to then). */
export function renderAccount(address: HexAddress, account: Account, now: number): Record<string, unknown> {
  const keys = [{ address, weight: 1n }];
  return {
    address,
    balance: i64(account.balance),
    create_time: i64(account.createdAt),
    latest_opration_time: i64(account.lastOperationAt),
    type: account.isContract ? 'Contract' : undefined,
    free_net_usage: i64(freeNetUsedAt(account, now)),
    latest_consume_free_time: i64(account.freeNetAt),
    net_usage: i64(netUsedAt(account, now)),
    latest_consume_time: i64(account.netAt),
    net_window_size: WINDOW_SIZE,
    net_window_optimized: true,
    account_resource: {
      energy_usage: i64(energyUsedAt(account, now)),
      latest_consume_time_for_energy: i64(account.energyAt),
      energy_window_size: WINDOW_SIZE,
      energy_window_optimized: true,
      delegated_frozenV2_balance_for_energy: i64(account.delegatedEnergySun),
      acquired_delegated_frozenV2_balance_for_energy: i64(account.acquiredEnergySun),
    },
    owner_permission: account.isContract ? undefined : { permission_name: 'owner', threshold: 1n, keys },
    active_permission: account.isContract
      ? undefined
      : [
          {
            type: 'Active',
            id: 2,
            permission_name: 'active',
            threshold: 1n,
            operations: ACTIVE_OPERATIONS,
            keys,
          },
        ],
    frozenV2: [{}, { type: 'ENERGY', amount: i64(account.frozenEnergySun) }, { type: 'TRON_POWER' }],
  };
}

/** `AccountResourceMessage` at time `now`. */
export function renderAccountResource(account: Account, now: number): Record<string, unknown> {
  return {
    freeNetUsed: i64(freeNetUsedAt(account, now)),
    freeNetLimit: i64(PARAMS.freeNetLimit),
    NetUsed: i64(netUsedAt(account, now)),
    NetLimit: i64(account.stakedNet),
    TotalNetLimit: PARAMS.totalNetLimit,
    TotalNetWeight: PARAMS.totalNetWeight,
    EnergyUsed: i64(energyUsedAt(account, now)),
    EnergyLimit: i64(energyLimitOf(account)),
    TotalEnergyLimit: PARAMS.totalEnergyLimit,
    TotalEnergyWeight: PARAMS.totalEnergyWeight,
  };
}

/** `AccountNetMessage` (getaccountnet) at time `now`. */
export function renderAccountNet(account: Account, now: number): Record<string, unknown> {
  return {
    freeNetUsed: i64(freeNetUsedAt(account, now)),
    freeNetLimit: i64(PARAMS.freeNetLimit),
    NetUsed: i64(netUsedAt(account, now)),
    NetLimit: i64(account.stakedNet),
    TotalNetLimit: PARAMS.totalNetLimit,
    TotalNetWeight: PARAMS.totalNetWeight,
  };
}

/** `SmartContract` (getcontract) of a native token; there is no real bytecode behind it. */
export function renderContract(token: Token): Record<string, unknown> {
  return {
    origin_address: token.owner,
    contract_address: token.address,
    abi: { entrys: tokenAbi() },
    bytecode: PLACEHOLDER_BYTECODE,
    consume_user_resource_percent: 100n,
    name: token.name,
    origin_energy_limit: 10_000_000n,
    code_hash: keccakHex(token.address),
  };
}

/** `SmartContractDataWrapper` (getcontractinfo). */
export function renderContractInfo(token: Token): Record<string, unknown> {
  return {
    runtimecode: PLACEHOLDER_BYTECODE,
    smart_contract: renderContract(token),
    contract_state: { update_cycle: 1n },
  };
}

/** The chain parameters a client reads fees from (getchainparameters). */
export function renderChainParameters(): Record<string, unknown> {
  const entries: [string, bigint][] = [
    ['getMaintenanceTimeInterval', 21_600_000n],
    ['getCreateAccountFee', PARAMS.createAccountNetFeeSun],
    ['getTransactionFee', PARAMS.bandwidthPriceSun],
    ['getCreateNewAccountFeeInSystemContract', PARAMS.createNewAccountFeeSun],
    ['getCreateNewAccountBandwidthRate', 1n],
    ['getEnergyFee', PARAMS.energyPriceSun],
    ['getFreeNetLimit', BigInt(PARAMS.freeNetLimit)],
    ['getTotalEnergyLimit', PARAMS.totalEnergyLimit],
    ['getAllowTvmFreezeV2', 1n],
    ['getAllowMultiSign', 1n],
    ['getMaxFeeLimit', PARAMS.maxFeeLimitSun],
    ['getMemoFee', 0n],
  ];
  return { chainParameter: entries.map(([key, value]) => ({ key, value: i64(value) })) };
}
