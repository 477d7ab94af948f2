/**
 * An execution failure: the transaction is valid, runs, fails, is final and still pays for gas.
 * It carries both renderings the node emits: the gRPC `ExecutionError` (kind enum name, command,
 * details) and the BCS `ExecutionFailureStatus` variant that goes into the effects' BCS and digest.
 */
import { SUI_FRAMEWORK } from './coin-types.ts';

export interface ArgumentErrorInfo {
  /** Index of the argument within the command. */
  argument: number;
  /** `CommandArgumentError.kind` member name in the gRPC enum, e.g. `TYPE_MISMATCH`. */
  kind: string;
}

export interface MoveAbortInfo {
  module: string;
  functionName: string;
  code: bigint;
}

/** Thrown by the PTB interpreter; the executor turns it into a failed, gas-charged transaction. */
export class ExecutionFailure extends Error {
  /** `ExecutionError.kind` member name in the gRPC enum, e.g. `INSUFFICIENT_GAS`. */
  readonly kind: string;
  /** Index of the failing command, when one command is to blame. */
  readonly command: number | undefined;
  /** The `ExecutionFailureStatus` BCS variant (SDK `bcs.TransactionEffects` input shape). */
  readonly bcsStatus: Record<string, unknown>;
  readonly argumentError: ArgumentErrorInfo | undefined;
  readonly abort: MoveAbortInfo | undefined;

  constructor(
    kind: string,
    description: string,
    bcsStatus: Record<string, unknown>,
    extra: { command?: number; argumentError?: ArgumentErrorInfo; abort?: MoveAbortInfo } = {},
  ) {
    super(extra.command === undefined ? description : `${description} in command ${extra.command}`);
    this.name = 'ExecutionFailure';
    this.kind = kind;
    this.command = extra.command;
    this.bcsStatus = bcsStatus;
    this.argumentError = extra.argumentError;
    this.abort = extra.abort;
  }
}

/** The gas budget does not cover computation and storage. */
export function insufficientGas(): ExecutionFailure {
  return new ExecutionFailure('INSUFFICIENT_GAS', 'Insufficient Gas', { InsufficientGas: true });
}

/** A SplitCoins asked for more than the coin holds. */
export function insufficientCoinBalance(command: number): ExecutionFailure {
  return new ExecutionFailure(
    'INSUFFICIENT_COIN_BALANCE',
    'Insufficient coin balance for operation',
    { InsufficientCoinBalance: true },
    { command },
  );
}

const ARGUMENT_BCS: Record<string, (extra: number) => Record<string, unknown>> = {
  TYPE_MISMATCH: () => ({ TypeMismatch: true }),
  INVALID_BCS_BYTES: () => ({ InvalidBCSBytes: true }),
  INVALID_VALUE_USAGE: () => ({ InvalidValueUsage: true }),
  INVALID_GAS_COIN_USAGE: () => ({ InvalidGasCoinUsage: true }),
  INVALID_OBJECT_BY_VALUE: () => ({ InvalidObjectByValue: true }),
  INDEX_OUT_OF_BOUNDS: (idx) => ({ IndexOutOfBounds: { idx } }),
  INVALID_RESULT_ARITY: (resultIdx) => ({ InvalidResultArity: { resultIdx } }),
};

/** A command argument of the wrong type, moved twice, out of bounds, and so on. */
export function argumentError(command: number, argument: number, kind: string, extra = 0): ExecutionFailure {
  const variant = ARGUMENT_BCS[kind];
  if (!variant) throw new Error(`no BCS variant for CommandArgumentError ${kind}`);
  return new ExecutionFailure(
    'COMMAND_ARGUMENT_ERROR',
    `Invalid command argument at ${argument}: ${kind}`,
    { CommandArgumentError: { argIdx: argument, kind: variant(extra) } },
    { command, argumentError: { argument, kind } },
  );
}

/** A value without `drop` (a coin) was left unused at the end of the transaction. */
export function unusedValueWithoutDrop(resultIdx: number, secondaryIdx: number): ExecutionFailure {
  return new ExecutionFailure(
    'UNUSED_VALUE_WITHOUT_DROP',
    `Unused result without the drop ability. Command result ${resultIdx}, return value ${secondaryIdx}`,
    { UnusedValueWithoutDrop: { resultIdx, secondaryIdx } },
  );
}

/** A Move abort in a `0x2` function (e.g. `balance::split` with too little, `balance::destroy_zero`). */
export function moveAbort(
  command: number,
  module: string,
  functionName: string,
  code: bigint,
): ExecutionFailure {
  return new ExecutionFailure(
    'MOVE_ABORT',
    `MoveAbort(MoveLocation { module: ModuleId { address: ${SUI_FRAMEWORK.slice(2)}, name: Identifier("${module}") }, function_name: Some("${functionName}") }, ${code})`,
    {
      MoveAbort: [
        { module: { address: SUI_FRAMEWORK, name: module }, function: 0, instruction: 0, functionName },
        code,
      ],
    },
    { command, abort: { module, functionName, code } },
  );
}
