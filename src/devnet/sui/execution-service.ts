/**
 * `sui.rpc.v2.TransactionExecutionService`: ExecuteTransaction (signatures verified, idempotent by
 * digest) and SimulateTransaction (no signatures, nothing committed; with `do_gas_selection` and no
 * gas payment it picks the sender's SUI coins and, for a zero budget, sets the budget to the cost).
 */
import { bcs } from '@mysten/sui/bcs';
import type { FakeSuiChain } from './chain.ts';
import { SUI_TYPE } from './coin-types.ts';
import { parseTransaction } from './executor.ts';
import { MAX_GAS_BUDGET, MAX_GAS_PAYMENT_OBJECTS, minBudget } from './gas.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import type {
  ExecuteTransactionRequest,
  ExecuteTransactionResponse,
  SimulateTransactionRequest,
  SimulateTransactionResponse,
  UserSignature,
} from './proto.ts';
import { TYPES } from './proto.ts';
import { DEFAULT_MASKS, masked } from './read-mask.ts';
import type { ServiceImplementation } from './service.ts';

function transactionBytes(request: { transaction?: { bcs?: { value?: Uint8Array } } }): Uint8Array {
  const value = request.transaction?.bcs?.value;
  if (!value || value.length === 0) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'missing transaction.bcs');
  return value;
}

/** The serialized bytes of a UserSignature: its `bcs`, or rebuilt from a simple signature. */
function signatureBytes(signature: UserSignature): Uint8Array {
  if (signature.bcs?.value && signature.bcs.value.length > 0) return signature.bcs.value;
  if (signature.signature.oneofKind === 'simple') {
    const { scheme, signature: sig, publicKey } = signature.signature.simple;
    if (scheme !== undefined && sig && publicKey) return Uint8Array.from([scheme, ...sig, ...publicKey]);
  }
  throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'signature without bcs bytes');
}

/** Fills an empty gas payment with the sender's SUI coins (largest first) and a zero budget with the max. */
function selectGas(chain: FakeSuiChain, bytes: Uint8Array): { bytes: Uint8Array; budgetWasZero: boolean } {
  const tx = parseTransaction(bytes);
  const data = structuredClone(tx.data);
  if (data.gasData.payment.length > 0) return { bytes, budgetWasZero: false };
  const used = new Set(
    data.kind.ProgrammableTransaction!.inputs.flatMap((i) =>
      i.$kind === 'Object' && i.Object.$kind === 'ImmOrOwnedObject'
        ? [i.Object.ImmOrOwnedObject.objectId]
        : [],
    ),
  );
  const coins = chain.store
    .coinsOf(tx.gasOwner, SUI_TYPE)
    .filter((c) => !used.has(c.id))
    .sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1))
    .slice(0, MAX_GAS_PAYMENT_OBJECTS);
  if (coins.length === 0)
    throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `no SUI coins to pay gas for ${tx.gasOwner}`);
  const total = coins.reduce((s, c) => s + c.balance, 0n);
  const budgetWasZero = tx.budget === 0n;
  data.gasData.payment = coins.map((c) => ({
    objectId: c.id,
    version: c.version.toString(),
    digest: c.digest,
  }));
  if (tx.price < chain.params.referenceGasPrice)
    data.gasData.price = chain.params.referenceGasPrice.toString();
  if (budgetWasZero) data.gasData.budget = smaller(total, MAX_GAS_BUDGET).toString();
  return { bytes: bcs.TransactionData.serialize({ V1: data }).toBytes(), budgetWasZero };
}

function smaller(a: bigint, b: bigint): bigint {
  if (a < b) return a;
  return b;
}

function withBudget(bytes: Uint8Array, budget: bigint): Uint8Array {
  const data = structuredClone(parseTransaction(bytes).data);
  data.gasData.budget = budget.toString();
  return bcs.TransactionData.serialize({ V1: data }).toBytes();
}

/** Handlers of `sui.rpc.v2.TransactionExecutionService`. */
export const executionService: ServiceImplementation = {
  unary: {
    ExecuteTransaction: async (
      chain: FakeSuiChain,
      request: ExecuteTransactionRequest,
    ): Promise<ExecuteTransactionResponse> => {
      const bytes = transactionBytes(request);
      const { record } = await chain.execute(bytes, request.signatures.map(signatureBytes));
      return masked(
        TYPES.executeTransactionResponse,
        { transaction: record.executed },
        request.readMask,
        DEFAULT_MASKS.executeTransaction,
      );
    },

    SimulateTransaction: (
      chain: FakeSuiChain,
      request: SimulateTransactionRequest,
    ): SimulateTransactionResponse => {
      let bytes = transactionBytes(request);
      if (request.doGasSelection) {
        const selected = selectGas(chain, bytes);
        bytes = selected.bytes;
        if (selected.budgetWasZero) {
          const used = chain.simulate(bytes).executed.effects?.gasUsed;
          const cost = (used?.computationCost ?? 0n) + (used?.storageCost ?? 0n);
          const floor = minBudget(parseTransaction(bytes).price);
          bytes = withBudget(bytes, cost > floor ? cost : floor);
        }
      }
      const outcome = chain.simulate(bytes);
      return masked(
        TYPES.simulateTransactionResponse,
        { transaction: outcome.executed, commandOutputs: [] },
        request.readMask,
        DEFAULT_MASKS.executeTransaction,
      );
    },
  },
};
