/**
 * Executes a programmable transaction against the object store, as a validator plus full node would:
 *
 * 1. input checks (refused with INVALID_ARGUMENT, nothing executed): expiration, gas price, budget
 *    bounds, gas coins (SUI, owned by the gas owner, enough balance), owned inputs at exactly their
 *    current version and digest and owned by the sender, no object used twice;
 * 2. gas smashing (extra gas coins merge into the first), budget reserved from the gas coin;
 * 3. the commands (ptb.ts); on failure, or when costs exceed the budget, everything but gas is
 *    reverted and the transaction is still final and charged (gas.ts);
 * 4. every input object gets the lamport version (max input version + 1), new digests, and the
 *    effects (BCS + digest computed with the SDK's `bcs.TransactionEffects`) and per-(address, coin
 *    type) balance changes are derived from the before/after object sets and address balances.
 *
 * `executeTransaction` is synchronous and pure with respect to the store; `commitOutcome` applies it.
 * Callers keep the two in one synchronous step so no other request can interleave.
 */
import { bcs } from '@mysten/sui/bcs';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { SUI_TYPE } from './coin-types.ts';
import { ExecutionFailure, insufficientGas } from './execution-failure.ts';
import {
  fitsBudget,
  type GasCost,
  gasCost,
  MAX_GAS_BUDGET,
  MAX_GAS_PAYMENT_OBJECTS,
  minBudget,
  netGas,
  OBJECT_STORAGE_COST,
  outOfGasCost,
} from './gas.ts';
import { GrpcCode, GrpcError, inputError } from './grpc-status.ts';
import { typedDigest } from './hashing.ts';
import { cloneObject, type FakeObject, type ObjectStore, objectTypeOf, sealObject } from './objects.ts';
import {
  type BalanceChange,
  type ChangedObject,
  ENUMS,
  type ExecutedTransaction,
  type ExecutionError,
  type TransactionEffects,
} from './proto.ts';
import {
  type AddressBalanceDelta,
  assertSupported,
  type PtbResult,
  runPtb,
  type TransactionDataV1,
} from './ptb.ts';
import { addressOwner, objectMessage, transactionMessage, userSignature } from './render.ts';

/** Chain-wide values execution depends on. */
export interface ChainParams {
  epoch: bigint;
  referenceGasPrice: bigint;
}

/** A decoded transaction: bytes, SDK digest and the fields execution reads. */
export interface ParsedTransaction {
  bytes: Uint8Array;
  digest: string;
  data: TransactionDataV1;
  sender: string;
  gasOwner: string;
  price: bigint;
  budget: bigint;
}

/** The result of executing one transaction, ready to commit and to serve. */
export interface ExecutionOutcome {
  digest: string;
  effectsDigest: string;
  success: boolean;
  executed: ExecutedTransaction;
  writes: FakeObject[];
  deletes: string[];
  addressDeltas: AddressBalanceDelta[];
  lamportVersion: bigint;
}

/**
 * Decodes BCS `TransactionData` and computes its digest exactly as the SDK does. Throws
 * INVALID_ARGUMENT for bytes that are not a V1 programmable transaction.
 */
export function parseTransaction(bytes: Uint8Array): ParsedTransaction {
  let parsed: ReturnType<typeof bcs.TransactionData.parse>;
  try {
    parsed = bcs.TransactionData.parse(bytes);
  } catch (cause) {
    throw new GrpcError(
      GrpcCode.INVALID_ARGUMENT,
      `invalid TransactionData BCS: ${(cause as Error).message}`,
    );
  }
  const data = parsed.V1;
  if (data?.kind.$kind !== 'ProgrammableTransaction') {
    throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'only programmable transactions can be executed');
  }
  return {
    bytes,
    digest: TransactionDataBuilder.getDigestFromBytes(bytes),
    data,
    sender: normalizeSuiAddress(data.sender),
    gasOwner: normalizeSuiAddress(data.gasData.owner),
    price: BigInt(data.gasData.price),
    budget: BigInt(data.gasData.budget),
  };
}

/** The signers whose signatures a transaction needs: the sender, and the gas owner if different. */
export function requiredSigners(tx: ParsedTransaction): string[] {
  return tx.sender === tx.gasOwner ? [tx.sender] : [tx.sender, tx.gasOwner];
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

function checkOwned(
  store: ObjectStore,
  ref: { objectId: string; version: string | number | bigint; digest: string },
  owner: string,
): FakeObject {
  const id = normalizeSuiAddress(ref.objectId);
  const version = BigInt(ref.version);
  const live = store.get(id);
  if (!live) {
    const deleted = store.deletedVersion(id);
    if (deleted !== undefined && store.getAt(id, version)) {
      throw inputError(
        `Object ID ${id} Version ${hex(version)} Digest ${ref.digest} is not available for consumption, current version: ${hex(deleted)}`,
      );
    }
    throw inputError(`Could not find the referenced object ${id} at version ${hex(version)}`);
  }
  if (live.version !== version) {
    throw inputError(
      `Object ID ${id} Version ${hex(version)} Digest ${ref.digest} is not available for consumption, current version: ${hex(live.version)}`,
    );
  }
  if (live.digest !== ref.digest) {
    throw inputError(`Invalid Object digest for object ${id}. Expected digest : ${live.digest}`);
  }
  if (live.owner !== owner) {
    throw inputError(
      `Object ${id} is owned by account address ${live.owner}, but given owner/signer address is ${owner}`,
    );
  }
  return live;
}

/** Checks what a validator checks before signing; returns the input objects (gas first). Throws INVALID_ARGUMENT. */
function checkInputs(
  store: ObjectStore,
  params: ChainParams,
  tx: ParsedTransaction,
): Map<string, FakeObject> {
  const { data } = tx;
  if (data.expiration.$kind === 'Epoch' && BigInt(data.expiration.Epoch) < params.epoch) {
    throw inputError('Transaction Expired');
  }
  const payment = data.gasData.payment;
  if (payment.length === 0) throw inputError('Missing gas payment');
  if (payment.length > MAX_GAS_PAYMENT_OBJECTS) {
    throw inputError(
      `Size limit exceeded: maximum number of gas payment objects is ${MAX_GAS_PAYMENT_OBJECTS}`,
    );
  }
  if (tx.price < params.referenceGasPrice) {
    throw inputError(`Gas price ${tx.price} under reference gas price (RGP) ${params.referenceGasPrice}`);
  }
  if (tx.budget < minBudget(tx.price)) {
    throw inputError(`Gas budget: ${tx.budget} is lower than min: ${minBudget(tx.price)}`);
  }
  if (tx.budget > MAX_GAS_BUDGET)
    throw inputError(`Gas budget: ${tx.budget} is higher than max: ${MAX_GAS_BUDGET}`);

  const objects = new Map<string, FakeObject>();
  const add = (obj: FakeObject) => {
    if (objects.has(obj.id))
      throw inputError(`Mutable object ${obj.id} cannot appear more than one in one transaction`);
    objects.set(obj.id, obj);
  };
  let gasBalance = 0n;
  for (const ref of payment) {
    const coin = checkOwned(store, ref, tx.gasOwner);
    if (coin.kind !== 'coin' || coin.coinType !== SUI_TYPE) {
      throw inputError(`Invalid gas object ${coin.id}: ${objectTypeOf(coin)} is not a SUI coin`);
    }
    add(coin);
    gasBalance += coin.balance;
  }
  const programmable = data.kind.ProgrammableTransaction!;
  assertSupported(programmable.inputs, programmable.commands);
  for (const input of programmable.inputs) {
    if (input.$kind === 'Object' && input.Object.$kind === 'ImmOrOwnedObject') {
      add(checkOwned(store, input.Object.ImmOrOwnedObject, tx.sender));
    }
  }
  if (gasBalance < tx.budget) {
    throw inputError(`Balance of gas object ${gasBalance} is lower than the needed amount: ${tx.budget}`);
  }
  return objects;
}

function executionError(failure: ExecutionFailure): ExecutionError {
  const error: ExecutionError = {
    description: failure.message,
    command: failure.command === undefined ? undefined : BigInt(failure.command),
    kind: ENUMS.errorKind(failure.kind),
    errorDetails: { oneofKind: undefined },
  };
  if (failure.argumentError) {
    error.errorDetails = {
      oneofKind: 'commandArgumentError',
      commandArgumentError: {
        argument: failure.argumentError.argument,
        kind: ENUMS.argumentErrorKind(failure.argumentError.kind),
      },
    };
  } else if (failure.abort) {
    error.errorDetails = {
      oneofKind: 'abort',
      abort: {
        abortCode: failure.abort.code,
        location: {
          package: normalizeSuiAddress('0x2'),
          module: failure.abort.module,
          functionName: failure.abort.functionName,
        },
      },
    };
  }
  return error;
}

function balanceChanges(
  inputs: Map<string, FakeObject>,
  outputs: Map<string, FakeObject>,
  addressDeltas: readonly AddressBalanceDelta[],
): BalanceChange[] {
  const sums = new Map<string, { address: string; coinType: string; amount: bigint }>();
  const add = (address: string, coinType: string, amount: bigint) => {
    const key = `${address}|${coinType}`;
    const entry = sums.get(key) ?? { address, coinType, amount: 0n };
    entry.amount += amount;
    sums.set(key, entry);
  };
  for (const obj of inputs.values()) if (obj.kind === 'coin') add(obj.owner, obj.coinType, -obj.balance);
  for (const obj of outputs.values()) if (obj.kind === 'coin') add(obj.owner, obj.coinType, obj.balance);
  for (const d of addressDeltas) add(d.owner, d.coinType, d.amount);
  return [...sums.values()]
    .filter((s) => s.amount !== 0n)
    .sort((a, b) =>
      a.address === b.address ? a.coinType.localeCompare(b.coinType) : a.address.localeCompare(b.address),
    )
    .map((s) => ({ address: s.address, coinType: s.coinType, amount: s.amount.toString() }));
}

/**
 * Runs a transaction without touching the store: checks inputs (INVALID_ARGUMENT on refusal,
 * UNIMPLEMENTED for what the fake does not model), executes, charges gas, builds effects and
 * balance changes. `signatures` are base64 and only recorded (verification is the caller's).
 */
export function executeTransaction(
  store: ObjectStore,
  params: ChainParams,
  tx: ParsedTransaction,
  signatures: readonly string[],
): ExecutionOutcome {
  const inputs = checkInputs(store, params, tx);
  const programmable = tx.data.kind.ProgrammableTransaction!;
  const payment = tx.data.gasData.payment.map((ref) => normalizeSuiAddress(ref.objectId));
  const gasId = payment[0]!;
  let lamportVersion = 0n;
  let inputRebates = 0n;
  for (const obj of inputs.values()) {
    if (obj.version > lamportVersion) lamportVersion = obj.version;
    inputRebates += obj.storageRebate;
  }
  lamportVersion += 1n;

  const start = () => {
    const working = new Map<string, FakeObject>();
    for (const [id, obj] of inputs) working.set(id, cloneObject(obj));
    const gas = working.get(gasId);
    if (gas?.kind !== 'coin') throw new Error('gas coin missing from working set');
    for (const id of payment.slice(1)) {
      const extra = working.get(id);
      if (extra?.kind === 'coin') gas.balance += extra.balance;
      working.delete(id);
    }
    gas.balance -= tx.budget;
    return { working, gas };
  };

  let { working, gas } = start();
  let failure: ExecutionFailure | undefined;
  let result: PtbResult = { created: new Set(), deleted: new Set(), addressDeltas: [] };
  try {
    result = runPtb({
      txDigest: tx.digest,
      sender: tx.sender,
      gasCoinId: gasId,
      inputs: programmable.inputs,
      commands: programmable.commands,
      objects: working,
    });
  } catch (error) {
    if (!(error instanceof ExecutionFailure)) throw error;
    failure = error;
  }

  let cost: GasCost = gasCost(tx.price, working.size, inputRebates);
  if (!failure && !fitsBudget(cost, tx.budget)) failure = insufficientGas();
  if (failure) {
    ({ working, gas } = start());
    result = { created: new Set(), deleted: new Set(), addressDeltas: [] };
    cost = gasCost(tx.price, working.size, inputRebates);
    if (failure.kind === 'INSUFFICIENT_GAS' || !fitsBudget(cost, tx.budget)) {
      if (failure.kind !== 'INSUFFICIENT_GAS') failure = insufficientGas();
      cost = outOfGasCost(tx.budget, working.size, inputRebates);
    }
  }
  gas.balance += tx.budget - netGas(cost);

  for (const obj of working.values()) {
    obj.version = lamportVersion;
    obj.previousTransaction = tx.digest;
    obj.storageRebate = OBJECT_STORAGE_COST;
    sealObject(obj);
  }

  const ids = [...new Set([...inputs.keys(), ...working.keys()])].sort();
  const changedObjects: ChangedObject[] = [];
  const bcsChanges: [string, Record<string, unknown>][] = [];
  for (const id of ids) {
    const before = inputs.get(id);
    const after = working.get(id);
    const idOperation = before ? (after ? 'None' : 'Deleted') : 'Created';
    changedObjects.push({
      objectId: id,
      inputState: before ? ENUMS.inputExists : ENUMS.inputDoesNotExist,
      inputVersion: before?.version,
      inputDigest: before?.digest,
      inputOwner: before ? addressOwner(before.owner) : undefined,
      outputState: after ? ENUMS.outputObjectWrite : ENUMS.outputDoesNotExist,
      outputVersion: after ? lamportVersion : undefined,
      outputDigest: after?.digest,
      outputOwner: after ? addressOwner(after.owner) : undefined,
      idOperation:
        idOperation === 'None' ? ENUMS.idNone : idOperation === 'Created' ? ENUMS.idCreated : ENUMS.idDeleted,
      objectType: objectTypeOf((after ?? before)!),
    });
    bcsChanges.push([
      id,
      {
        inputState: before
          ? { Exist: [[before.version, before.digest], { AddressOwner: before.owner }] }
          : { NotExist: true },
        outputState: after
          ? { ObjectWrite: [after.digest, { AddressOwner: after.owner }] }
          : { NotExist: true },
        idOperation: { [idOperation]: true },
      },
    ]);
  }

  const dependencies = [...new Set([...inputs.values()].map((o) => o.previousTransaction))].sort();
  const effectsBcs = bcs.TransactionEffects.serialize({
    V2: {
      status: failure
        ? {
            Failed: {
              error: failure.bcsStatus,
              command: failure.command === undefined ? null : failure.command,
            },
          }
        : { Success: true },
      executedEpoch: params.epoch,
      gasUsed: cost,
      transactionDigest: tx.digest,
      gasObjectIndex: ids.indexOf(gasId),
      eventsDigest: null,
      dependencies,
      lamportVersion,
      changedObjects: bcsChanges,
      unchangedSharedObjects: [],
      auxDataDigest: null,
    },
  } as unknown as Parameters<typeof bcs.TransactionEffects.serialize>[0]).toBytes();
  const effectsDigest = typedDigest('TransactionEffects', effectsBcs);

  const effects: TransactionEffects = {
    bcs: { name: 'TransactionEffects', value: effectsBcs },
    digest: effectsDigest,
    version: 2,
    status: failure ? { success: false, error: executionError(failure) } : { success: true },
    epoch: params.epoch,
    gasUsed: cost,
    transactionDigest: tx.digest,
    gasObject: changedObjects.find((c) => c.objectId === gasId),
    dependencies,
    lamportVersion,
    changedObjects,
    unchangedConsensusObjects: [],
    unchangedLoadedRuntimeObjects: [],
  };

  const executed: ExecutedTransaction = {
    digest: tx.digest,
    transaction: transactionMessage(tx.digest, tx.data, signatures),
    signatures: signatures.map(userSignature),
    effects,
    balanceChanges: balanceChanges(inputs, working, result.addressDeltas),
    objects: { objects: [...inputs.values(), ...working.values()].map(objectMessage) },
  };

  return {
    digest: tx.digest,
    effectsDigest,
    success: !failure,
    executed,
    writes: [...working.values()],
    deletes: ids.filter((id) => !working.has(id)),
    addressDeltas: result.addressDeltas,
    lamportVersion,
  };
}

/** Applies an outcome to the store: new object versions, deletions, address-balance movements. */
export function commitOutcome(store: ObjectStore, outcome: ExecutionOutcome): void {
  for (const obj of outcome.writes) store.put(obj);
  for (const id of outcome.deletes) store.remove(id, outcome.lamportVersion);
  for (const d of outcome.addressDeltas) store.addToAddressBalance(d.owner, d.coinType, d.amount);
}
