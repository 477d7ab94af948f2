import type { ExecutionStatus } from './grpc.ts';

/** `ExecutionError.kind` values of sui.rpc.v2 (protobuf enum numbers never change). */
export const EXECUTION_ERROR_KIND = { INSUFFICIENT_GAS: 1, INSUFFICIENT_COIN_BALANCE: 8 } as const;

/** Why a transaction failed, in the node's words, with the command that failed. */
export function describeFailure(status: ExecutionStatus | undefined): string {
  const error = status?.error;
  if (!error) return 'the transaction failed';
  const text = error.description || `execution error kind ${error.kind}`;
  return error.command === undefined || text.includes('command')
    ? text
    : `${text} in command ${error.command}`;
}
