/**
 * Runs the programmable-transaction commands a payment needs on working copies of objects:
 * SplitCoins, MergeCoins and TransferObjects (on the gas coin and on `Coin<T>`), and the `0x2`
 * Move calls the SDK and the faucet emit: `coin::zero` (what `coinWithBalance` uses for a zero
 * amount), `coin::mint`, `coin::mint_and_transfer`, `coin::send_funds` (SIP-58: into the recipient's
 * address balance), `coin::split`, `coin::join`, `coin::destroy_zero`, `transfer::public_transfer`.
 *
 * Semantics kept from Sui: a value moved by value cannot be used again; the gas coin is usable by
 * value only in TransferObjects; a coin created and not consumed is UnusedValueWithoutDrop; every
 * failure is an ExecutionFailure that names the command.
 */
import { bcs } from '@mysten/sui/bcs';
import { fromBase64, normalizeSuiAddress, toHex } from '@mysten/sui/utils';
import { normalizeType, SUI_FRAMEWORK } from './coin-types.ts';
import {
  argumentError,
  ExecutionFailure,
  insufficientCoinBalance,
  moveAbort,
  unusedValueWithoutDrop,
} from './execution-failure.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import { deriveObjectId } from './hashing.ts';
import { type CoinObject, type FakeObject, objectTypeOf, type TreasuryCapObject } from './objects.ts';

export type TransactionDataBcs = typeof bcs.TransactionData.$inferType;
export type TransactionDataV1 = TransactionDataBcs['V1'];
type Programmable = NonNullable<TransactionDataV1['kind']['ProgrammableTransaction']>;
export type CallArg = Programmable['inputs'][number];
export type Command = Programmable['commands'][number];
type Argument = Extract<Command, { $kind: 'SplitCoins' }>['SplitCoins']['coin'];
type MoveCall = Extract<Command, { $kind: 'MoveCall' }>['MoveCall'];

/** A credit to (or debit from) an address balance made by a transaction. */
export interface AddressBalanceDelta {
  owner: string;
  coinType: string;
  amount: bigint;
}

/** What a run needs: the transaction's inputs and commands, and working copies of its objects. */
export interface PtbRun {
  txDigest: string;
  sender: string;
  gasCoinId: string | undefined;
  inputs: readonly CallArg[];
  commands: readonly Command[];
  /** Input objects (gas included) by id; changed in place, created objects are added. */
  objects: Map<string, FakeObject>;
}

/** The objects a successful run created and deleted, and the address-balance movements. */
export interface PtbResult {
  created: Set<string>;
  deleted: Set<string>;
  addressDeltas: AddressBalanceDelta[];
}

const MOVE_CALLS = new Set([
  'coin::zero',
  'coin::mint',
  'coin::mint_and_transfer',
  'coin::send_funds',
  'coin::split',
  'coin::join',
  'coin::destroy_zero',
  'transfer::public_transfer',
]);

function moveCallName(call: MoveCall): string | undefined {
  if (normalizeSuiAddress(call.package) !== SUI_FRAMEWORK) return undefined;
  const name = `${call.module}::${call.function}`;
  return MOVE_CALLS.has(name) ? name : undefined;
}

/**
 * Refuses, before anything runs, a transaction that uses what the fake does not model (Publish,
 * Upgrade, MakeMoveVec, other Move functions, shared or receiving objects): UNIMPLEMENTED.
 */
export function assertSupported(inputs: readonly CallArg[], commands: readonly Command[]): void {
  for (const input of inputs) {
    if (input.$kind === 'Object' && input.Object.$kind !== 'ImmOrOwnedObject') {
      throw new GrpcError(
        GrpcCode.UNIMPLEMENTED,
        `the fake Sui node does not support ${input.Object.$kind} inputs`,
      );
    }
  }
  for (const command of commands) {
    if (command.$kind === 'MoveCall') {
      if (!moveCallName(command.MoveCall)) {
        const { package: pkg, module, function: fn } = command.MoveCall;
        throw new GrpcError(
          GrpcCode.UNIMPLEMENTED,
          `the fake Sui node does not support MoveCall ${pkg}::${module}::${fn}`,
        );
      }
      continue;
    }
    if (
      command.$kind !== 'SplitCoins' &&
      command.$kind !== 'MergeCoins' &&
      command.$kind !== 'TransferObjects'
    ) {
      throw new GrpcError(
        GrpcCode.UNIMPLEMENTED,
        `the fake Sui node does not support ${command.$kind} commands`,
      );
    }
  }
}

type Value = { kind: 'object'; id: string } | { kind: 'pure'; bytes: Uint8Array };

/** Runs the commands; throws ExecutionFailure, leaving the working copies in an undefined state. */
export function runPtb(run: PtbRun): PtbResult {
  const results: Value[][] = [];
  const moved = new Set<string>();
  const unassigned = new Map<string, [number, number]>();
  const created = new Set<string>();
  const deleted = new Set<string>();
  const addressDeltas: AddressBalanceDelta[] = [];
  let counter = 0n;

  const resolve = (arg: Argument, cmd: number, argIdx: number): Value => {
    switch (arg.$kind) {
      case 'GasCoin':
        if (!run.gasCoinId) throw argumentError(cmd, argIdx, 'INVALID_GAS_COIN_USAGE');
        return { kind: 'object', id: run.gasCoinId };
      case 'Input': {
        const input = run.inputs[arg.Input];
        if (!input) throw argumentError(cmd, argIdx, 'INDEX_OUT_OF_BOUNDS', arg.Input);
        if (input.$kind === 'Pure') return { kind: 'pure', bytes: fromBase64(input.Pure.bytes) };
        if (input.Object.$kind !== 'ImmOrOwnedObject') throw argumentError(cmd, argIdx, 'TYPE_MISMATCH');
        return { kind: 'object', id: normalizeSuiAddress(input.Object.ImmOrOwnedObject.objectId) };
      }
      case 'Result': {
        const result = arg.Result < cmd ? results[arg.Result] : undefined;
        if (!result) throw argumentError(cmd, argIdx, 'INDEX_OUT_OF_BOUNDS', arg.Result);
        if (result.length !== 1) throw argumentError(cmd, argIdx, 'INVALID_RESULT_ARITY', arg.Result);
        return result[0]!;
      }
      case 'NestedResult': {
        const [i, j] = arg.NestedResult;
        const value = i < cmd ? results[i]?.[j] : undefined;
        if (!value) throw argumentError(cmd, argIdx, 'INDEX_OUT_OF_BOUNDS', i);
        return value;
      }
      default:
        throw argumentError(cmd, argIdx, 'TYPE_MISMATCH');
    }
  };

  const objectArg = (arg: Argument, cmd: number, argIdx: number, byValue: boolean, gasByValue = false) => {
    const value = resolve(arg, cmd, argIdx);
    if (value.kind !== 'object') throw argumentError(cmd, argIdx, 'TYPE_MISMATCH');
    const obj = run.objects.get(value.id);
    if (!obj || moved.has(value.id)) throw argumentError(cmd, argIdx, 'INVALID_VALUE_USAGE');
    if (byValue && value.id === run.gasCoinId && !gasByValue) {
      throw argumentError(cmd, argIdx, 'INVALID_GAS_COIN_USAGE');
    }
    return obj;
  };

  const coinArg = (arg: Argument, cmd: number, argIdx: number, byValue: boolean, coinType?: string) => {
    const obj = objectArg(arg, cmd, argIdx, byValue);
    if (obj.kind !== 'coin' || (coinType !== undefined && obj.coinType !== coinType)) {
      throw argumentError(cmd, argIdx, 'TYPE_MISMATCH');
    }
    return obj;
  };

  const pureArg = (arg: Argument, cmd: number, argIdx: number, length: number) => {
    const value = resolve(arg, cmd, argIdx);
    if (value.kind !== 'pure') throw argumentError(cmd, argIdx, 'TYPE_MISMATCH');
    if (value.bytes.length !== length) throw argumentError(cmd, argIdx, 'INVALID_BCS_BYTES');
    return value.bytes;
  };

  const u64Arg = (arg: Argument, cmd: number, argIdx: number) =>
    BigInt(bcs.u64().parse(pureArg(arg, cmd, argIdx, 8)));
  const addressArg = (arg: Argument, cmd: number, argIdx: number) =>
    normalizeSuiAddress(toHex(pureArg(arg, cmd, argIdx, 32)));

  const consume = (id: string) => {
    moved.add(id);
    unassigned.delete(id);
  };

  const destroy = (id: string) => {
    consume(id);
    run.objects.delete(id);
    if (!created.delete(id)) deleted.add(id);
  };

  const newCoin = (coinType: string, balance: bigint, cmd: number, resultIdx: number) => {
    const id = deriveObjectId(run.txDigest, counter++);
    const coin: CoinObject = {
      kind: 'coin',
      id,
      version: 0n,
      digest: '',
      owner: run.sender,
      previousTransaction: run.txDigest,
      storageRebate: 0n,
      coinType,
      balance,
    };
    run.objects.set(id, coin);
    created.add(id);
    unassigned.set(id, [cmd, resultIdx]);
    return { kind: 'object', id } as const;
  };

  const transfer = (obj: FakeObject, recipient: string) => {
    obj.owner = recipient;
    consume(obj.id);
  };

  const merge = (dest: CoinObject, sources: readonly Argument[], cmd: number, firstArg: number) => {
    for (const [i, source] of sources.entries()) {
      const coin = coinArg(source, cmd, firstArg + i, true, dest.coinType);
      if (coin.id === dest.id) throw argumentError(cmd, firstArg + i, 'INVALID_VALUE_USAGE');
      dest.balance += coin.balance;
      destroy(coin.id);
    }
  };

  const moveCall = (call: MoveCall, cmd: number): Value[] => {
    const name = moveCallName(call)!;
    const args = call.arguments;
    const typeArgs = call.typeArguments.map((t, argumentIdx) => {
      try {
        return normalizeType(t);
      } catch {
        throw new ExecutionFailure(
          'TYPE_ARGUMENT_ERROR',
          'Type argument error',
          { TypeArgumentError: { argumentIdx, kind: { TypeNotFound: true } } },
          { command: cmd },
        );
      }
    });
    const arity: Record<string, number> = {
      'coin::zero': 0,
      'coin::mint': 2,
      'coin::mint_and_transfer': 3,
      'coin::send_funds': 2,
      'coin::split': 2,
      'coin::join': 2,
      'coin::destroy_zero': 1,
      'transfer::public_transfer': 2,
    };
    if (typeArgs.length !== 1) {
      throw new ExecutionFailure(
        'TYPE_ARITY_MISMATCH',
        'Type arity mismatch',
        { TypeArityMismatch: true },
        { command: cmd },
      );
    }
    if (args.length !== arity[name]) {
      throw new ExecutionFailure(
        'ARITY_MISMATCH',
        'Arity mismatch',
        { ArityMismatch: true },
        { command: cmd },
      );
    }
    const type = typeArgs[0]!;
    const [a0, a1, a2] = args;
    switch (name) {
      case 'coin::zero':
        return [newCoin(type, 0n, cmd, 0)];
      case 'coin::mint':
      case 'coin::mint_and_transfer': {
        const cap = objectArg(a0!, cmd, 0, false);
        if (cap.kind !== 'treasury-cap' || cap.coinType !== type)
          throw argumentError(cmd, 0, 'TYPE_MISMATCH');
        const amount = u64Arg(a1!, cmd, 1);
        (cap as TreasuryCapObject).totalSupply += amount;
        const coin = newCoin(type, amount, cmd, 0);
        if (name === 'coin::mint') return [coin];
        transfer(run.objects.get(coin.id)!, addressArg(a2!, cmd, 2));
        return [];
      }
      case 'coin::send_funds': {
        const coin = coinArg(a0!, cmd, 0, true, type);
        const owner = addressArg(a1!, cmd, 1);
        addressDeltas.push({ owner, coinType: type, amount: coin.balance });
        destroy(coin.id);
        return [];
      }
      case 'coin::split': {
        const coin = coinArg(a0!, cmd, 0, false, type);
        const amount = u64Arg(a1!, cmd, 1);
        if (amount > coin.balance) throw moveAbort(cmd, 'balance', 'split', 2n);
        coin.balance -= amount;
        return [newCoin(type, amount, cmd, 0)];
      }
      case 'coin::join': {
        const dest = coinArg(a0!, cmd, 0, false, type);
        merge(dest, [a1!], cmd, 1);
        return [];
      }
      case 'coin::destroy_zero': {
        const coin = coinArg(a0!, cmd, 0, true, type);
        if (coin.balance !== 0n) throw moveAbort(cmd, 'balance', 'destroy_zero', 0n);
        destroy(coin.id);
        return [];
      }
      default: {
        const obj = objectArg(a0!, cmd, 0, true, true);
        if (objectTypeOf(obj) !== type) throw argumentError(cmd, 0, 'TYPE_MISMATCH');
        transfer(obj, addressArg(a1!, cmd, 1));
        return [];
      }
    }
  };

  for (const [cmd, command] of run.commands.entries()) {
    switch (command.$kind) {
      case 'SplitCoins': {
        const { coin: coinArgument, amounts } = command.SplitCoins;
        const coin = coinArg(coinArgument, cmd, 0, false);
        const values = amounts.map((a, i) => u64Arg(a, cmd, i + 1));
        const total = values.reduce((s, v) => s + v, 0n);
        if (total > coin.balance) throw insufficientCoinBalance(cmd);
        coin.balance -= total;
        results.push(values.map((v, i) => newCoin(coin.coinType, v, cmd, i)));
        break;
      }
      case 'MergeCoins': {
        const { destination, sources } = command.MergeCoins;
        merge(coinArg(destination, cmd, 0, false), sources, cmd, 1);
        results.push([]);
        break;
      }
      case 'TransferObjects': {
        const { objects, address } = command.TransferObjects;
        const recipient = addressArg(address, cmd, objects.length);
        const transferred = objects.map((o, i) => objectArg(o, cmd, i, true, true));
        const ids = new Set<string>();
        for (const [i, obj] of transferred.entries()) {
          if (ids.has(obj.id)) throw argumentError(cmd, i, 'INVALID_VALUE_USAGE');
          ids.add(obj.id);
        }
        for (const obj of transferred) transfer(obj, recipient);
        results.push([]);
        break;
      }
      case 'MoveCall':
        results.push(moveCall(command.MoveCall, cmd));
        break;
      default:
        throw new GrpcError(
          GrpcCode.UNIMPLEMENTED,
          `the fake Sui node does not support ${command.$kind} commands`,
        );
    }
  }

  const leftover = unassigned.values().next();
  if (!leftover.done) throw unusedValueWithoutDrop(leftover.value[0], leftover.value[1]);
  return { created, deleted, addressDeltas };
}
