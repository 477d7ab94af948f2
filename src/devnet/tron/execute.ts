import type { HexAddress } from './encoding.ts';
import { insufficientResources, invalidContract } from './errors.ts';
import { PARAMS } from './params.ts';
import {
  type Account,
  delegatableEnergySun,
  delegationKey,
  energyLimitOf,
  energyUsedAt,
  freeNetUsedAt,
  netUsedAt,
  newAccount,
  type State,
} from './state.ts';
import {
  bandwidthBytes,
  type DelegateCall,
  type TransferCall,
  type TriggerCall,
  type Tx,
  type UndelegateCall,
} from './transaction.ts';
import { applyWrites, callToken, type Log } from './trc20.ts';

/** `Transaction.Result.contractResult` values the fake node produces. */
export type ContractRet = 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';

/** What executing a transaction did; rendered as `ret[0]` in blocks and as TransactionInfo. */
export interface Outcome {
  readonly contractRet: ContractRet;
  /** `TransactionInfo.fee`: everything burnt, in sun */
  readonly fee: bigint;
  /** `ret[0].fee`: the system contract's own fee (account creation) */
  readonly retFee: bigint;
  readonly netUsage: number;
  readonly netFee: bigint;
  /** energy paid from staked energy */
  readonly energyUsage: number;
  readonly energyFee: bigint;
  readonly energyUsageTotal: number;
  /** set for TriggerSmartContract: the called contract */
  readonly contractAddress?: HexAddress;
  readonly contractResult: string;
  readonly logs: readonly Log[];
  /** failure reason text (hex-encoded when rendered) */
  readonly resMessage?: string;
}

interface NetPlan {
  readonly from: 'staked' | 'free' | 'burn';
  readonly bytes: number;
  readonly fee: bigint;
}

/**
 * Executes `tx` against `state` at block time `now`, mutating the state. Throws a Refusal (and
 * leaves the state untouched) when java-tron would refuse the transaction at broadcast:
 * contract validation (CONTRACT_VALIDATE_ERROR) or unpaid bandwidth (BANDWITH_ERROR). A contract
 * call that reverts or runs out of energy is not a refusal: it is included and pays its fees.
 */
export function execute(state: State, tx: Tx, now: number): Outcome {
  const call = tx.raw.contract;
  switch (call.type) {
    case 'TransferContract':
      return transferTrx(state, tx, call, now);
    case 'TriggerSmartContract':
      return triggerContract(state, tx, call, tx.raw.feeLimit, now);
    case 'DelegateResourceContract':
      return delegateResource(state, tx, call, now);
    case 'UnDelegateResourceContract':
      return undelegateResource(state, tx, call, now);
  }
}

/** One TRX: the least a delegation may lend (java-tron's TRX_PRECISION check). */
const ONE_TRX = 1_000_000n;

/**
 * DelegateResourceContract (Stake 2.0), energy only: `owner` lends `balance` sun of the TRX it froze
 * for energy to `receiver`, whose energy limit grows by what that stake gives (its share of the
 * network's energy). Checks and messages as java-tron's DelegateResourceActuator.
 */
function delegateResource(state: State, tx: Tx, call: DelegateCall, now: number): Outcome {
  if (call.resource !== 'ENERGY') throw invalidContract('the fake TRON node lends ENERGY only');
  if (call.balance < ONE_TRX) throw invalidContract('delegateBalance must be greater than or equal to 1 TRX');
  const owner = state.accounts.get(call.owner);
  if (owner === undefined) throw invalidContract(`Account[${call.owner}] not exists`);
  if (call.owner === call.receiver)
    throw invalidContract('receiverAddress must not be the same as ownerAddress');
  const receiver = state.accounts.get(call.receiver);
  if (receiver === undefined) throw invalidContract(`Account[${call.receiver}] not exists`);
  if (receiver.isContract) throw invalidContract('Do not allow delegate resources to contract addresses');
  if (call.balance > delegatableEnergySun(owner, now))
    throw invalidContract('delegateBalance must be less than or equal to available FreezeEnergyV2 balance');
  return withBandwidth(owner, tx, now, () => {
    owner.delegatedEnergySun += call.balance;
    receiver.acquiredEnergySun += call.balance;
    const key = delegationKey(call.owner, call.receiver);
    state.delegations.set(key, (state.delegations.get(key) ?? 0n) + call.balance);
  });
}

/**
 * UnDelegateResourceContract, energy only: `owner` takes back `balance` sun it lent `receiver`.
 * (java-tron also moves part of the receiver's energy usage back to the owner; the fake leaves the
 * usage with the receiver, which only matters to a receiver that is lent energy again within 24 h.)
 */
function undelegateResource(state: State, tx: Tx, call: UndelegateCall, now: number): Outcome {
  if (call.resource !== 'ENERGY') throw invalidContract('the fake TRON node lends ENERGY only');
  const owner = state.accounts.get(call.owner);
  if (owner === undefined) throw invalidContract(`Account[${call.owner}] does not exist`);
  if (call.owner === call.receiver)
    throw invalidContract('receiver address must not be the same as owner address');
  const key = delegationKey(call.owner, call.receiver);
  const lent = state.delegations.get(key) ?? 0n;
  if (lent === 0n) throw invalidContract('delegated Resource does not exist');
  if (call.balance <= 0n || call.balance > lent) {
    throw invalidContract(
      `insufficient delegatedFrozenBalance(Energy), request=${call.balance}, unfreezeBalance=${lent}`,
    );
  }
  return withBandwidth(owner, tx, now, () => {
    owner.delegatedEnergySun -= call.balance;
    const receiver = state.accounts.get(call.receiver);
    if (receiver) receiver.acquiredEnergySun -= call.balance;
    if (lent === call.balance) state.delegations.delete(key);
    else state.delegations.set(key, lent - call.balance);
  });
}

/** A system contract that only costs bandwidth: paid (or refused) like any transaction, then `apply`. */
function withBandwidth(owner: Account, tx: Tx, now: number, apply: () => void): Outcome {
  const net = planNet(owner, bandwidthBytes(tx), now);
  if (owner.balance < net.fee) throw insufficientResources();
  payNet(owner, net, now);
  owner.lastOperationAt = now;
  apply();
  return {
    contractRet: 'SUCCESS',
    fee: net.fee,
    retFee: 0n,
    netUsage: net.from === 'burn' ? 0 : net.bytes,
    netFee: net.fee,
    energyUsage: 0,
    energyFee: 0n,
    energyUsageTotal: 0,
    contractResult: '',
    logs: [],
  };
}

function transferTrx(state: State, tx: Tx, call: TransferCall, now: number): Outcome {
  if (call.owner === call.to) throw invalidContract('Cannot transfer TRX to yourself.');
  const owner = state.accounts.get(call.owner);
  if (owner === undefined) throw invalidContract('Validate TransferContract error, no OwnerAccount.');
  if (call.amount <= 0n) throw invalidContract('Amount must be greater than 0.');
  const recipient = state.accounts.get(call.to);
  if (recipient?.isContract) throw invalidContract('Cannot transfer TRX to a smart contract.');
  const creates = recipient === undefined;
  const bytes = bandwidthBytes(tx);
  const net = creates ? planCreationNet(owner, bytes, now) : planNet(owner, bytes, now);
  const retFee = creates ? PARAMS.createNewAccountFeeSun : 0n;
  if (owner.balance < call.amount + retFee + net.fee) {
    throw invalidContract('Validate TransferContract error, balance is not sufficient.');
  }

  payNet(owner, net, now);
  owner.balance -= call.amount + retFee;
  owner.lastOperationAt = now;
  const target = recipient ?? newAccount(now);
  target.balance += call.amount;
  if (creates) state.accounts.set(call.to, target);

  return {
    contractRet: 'SUCCESS',
    fee: net.fee + retFee,
    retFee,
    netUsage: net.from === 'burn' ? 0 : net.bytes,
    netFee: net.fee,
    energyUsage: 0,
    energyFee: 0n,
    energyUsageTotal: 0,
    contractResult: '',
    logs: [],
  };
}

function triggerContract(state: State, tx: Tx, call: TriggerCall, feeLimit: bigint, now: number): Outcome {
  const token = state.tokens.get(call.contract);
  if (token === undefined) throw invalidContract('No contract or not a valid smart contract');
  const owner = state.accounts.get(call.owner);
  if (owner === undefined) throw invalidContract(`account [${call.owner}] does not exist`);
  if (feeLimit < 0n || feeLimit > PARAMS.maxFeeLimitSun) {
    throw invalidContract(`feeLimit must be >= 0 and <= ${PARAMS.maxFeeLimitSun}`);
  }
  if (call.callValue > owner.balance) {
    throw invalidContract('Validate InternalTransfer error, balance is not sufficient.');
  }
  const net = planNet(owner, bandwidthBytes(tx), now);
  if (owner.balance < net.fee) throw insufficientResources();
  payNet(owner, net, now);
  owner.lastOperationAt = now;

  const stakedLeft = Math.max(0, energyLimitOf(owner) - energyUsedAt(owner, now));
  const limit = Math.min(
    stakedLeft + Number(owner.balance / PARAMS.energyPriceSun),
    Number(feeLimit / PARAMS.energyPriceSun),
  );
  const result = callToken(token, call.owner, call.data, call.callValue);
  const outOfEnergy = result.energy > limit;
  const used = outOfEnergy ? limit : result.energy;
  const fromStake = Math.min(used, stakedLeft);
  const energyFee = BigInt(used - fromStake) * PARAMS.energyPriceSun;
  owner.balance -= energyFee;
  if (fromStake > 0) {
    owner.energyUsed = energyUsedAt(owner, now) + fromStake;
    owner.energyAt = now;
  }

  const base = {
    fee: net.fee + energyFee,
    retFee: 0n,
    netUsage: net.from === 'burn' ? 0 : net.bytes,
    netFee: net.fee,
    energyUsage: fromStake,
    energyFee,
    energyUsageTotal: used,
    contractAddress: call.contract,
  };
  if (outOfEnergy) {
    return {
      ...base,
      contractRet: 'OUT_OF_ENERGY',
      contractResult: '',
      logs: [],
      resMessage:
        `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${limit}], ` +
        `curOpEnergy[${result.energy - limit}], usedEnergy[${limit}]`,
    };
  }
  if (result.status === 'REVERT') {
    return {
      ...base,
      contractRet: 'REVERT',
      contractResult: result.returnData,
      logs: [],
      resMessage: 'REVERT opcode executed',
    };
  }
  applyWrites(token, result.writes);
  return { ...base, contractRet: 'SUCCESS', contractResult: result.returnData, logs: result.logs };
}

/** Bandwidth for an ordinary transaction: staked, else the free allowance, else burn 1 000 sun/byte. */
function planNet(owner: Account, bytes: number, now: number): NetPlan {
  if (owner.stakedNet - netUsedAt(owner, now) >= bytes) return { from: 'staked', bytes, fee: 0n };
  if (PARAMS.freeNetLimit - freeNetUsedAt(owner, now) >= bytes) return { from: 'free', bytes, fee: 0n };
  return { from: 'burn', bytes, fee: BigInt(bytes) * PARAMS.bandwidthPriceSun };
}

/** Bandwidth for a transfer that creates its recipient: staked, else a flat 0.1 TRX (no free bandwidth). */
function planCreationNet(owner: Account, bytes: number, now: number): NetPlan {
  if (owner.stakedNet - netUsedAt(owner, now) >= bytes) return { from: 'staked', bytes, fee: 0n };
  return { from: 'burn', bytes, fee: PARAMS.createAccountNetFeeSun };
}

function payNet(owner: Account, net: NetPlan, now: number): void {
  if (net.from === 'staked') {
    owner.netUsed = netUsedAt(owner, now) + net.bytes;
    owner.netAt = now;
  } else if (net.from === 'free') {
    owner.freeNetUsed = freeNetUsedAt(owner, now) + net.bytes;
    owner.freeNetAt = now;
  } else {
    owner.balance -= net.fee;
  }
}

/**
 * Runs a read-only call (triggerconstantcontract / estimateenergy) on a throw-away copy of the
 * token. Returns undefined when `contract` is not a contract.
 */
export function simulate(
  state: State,
  caller: HexAddress,
  contract: HexAddress,
  data: string,
  callValue: bigint,
): ReturnType<typeof callToken> | undefined {
  const token = state.tokens.get(contract);
  if (token === undefined) return undefined;
  return callToken(token, caller, data, callValue);
}
