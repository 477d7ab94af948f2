/** Response codes of `GrpcAPI.Return.response_code` that the fake node answers broadcasts with. */
export type BroadcastCode =
  | 'SIGERROR'
  | 'CONTRACT_VALIDATE_ERROR'
  | 'CONTRACT_EXE_ERROR'
  | 'BANDWITH_ERROR'
  | 'DUP_TRANSACTION_ERROR'
  | 'TAPOS_ERROR'
  | 'TOO_BIG_TRANSACTION_ERROR'
  | 'TRANSACTION_EXPIRATION_ERROR'
  | 'SERVER_BUSY'
  | 'OTHER_ERROR';

/**
 * A transaction the node refuses to take into its pool. `message` is the text java-tron's
 * `Wallet.broadcastTransaction` puts in `Return.message` (printed as hex with visible=false).
 */
export class Refusal extends Error {
  constructor(
    readonly code: BroadcastCode,
    message: string,
  ) {
    super(message);
  }
}

/** `ContractValidateException` as broadcast reports it: `Contract validate error : <reason>`. */
export function invalidContract(reason: string): Refusal {
  return new Refusal('CONTRACT_VALIDATE_ERROR', `Contract validate error : ${reason}`);
}

/** `ValidateSignatureException` as broadcast reports it. */
export function badSignature(reason: string): Refusal {
  return new Refusal('SIGERROR', `Validate signature error: ${reason}`);
}

/** `AccountResourceInsufficientException` as broadcast reports it. */
export function insufficientResources(): Refusal {
  return new Refusal('BANDWITH_ERROR', 'Account resource insufficient error.');
}

/** `DupTransactionException` as broadcast reports it. */
export function duplicate(): Refusal {
  return new Refusal('DUP_TRANSACTION_ERROR', 'Dup transaction.');
}

/** `TaposException` as broadcast reports it. */
export function taposFailed(): Refusal {
  return new Refusal('TAPOS_ERROR', 'Tapos check error.');
}

/** `TransactionExpirationException` as broadcast reports it. */
export function expired(): Refusal {
  return new Refusal('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired');
}

/**
 * An exception a java-tron servlet catches and prints as `{"Error": "<class> : <message>"}` with
 * HTTP 200 (A.1), e.g. `class org.tron.core.exception.ContractValidateException : …`.
 */
export class ServletError extends Error {
  constructor(
    readonly javaClass: string,
    message: string,
  ) {
    super(message);
  }

  /** The body java-tron prints for this exception. */
  body(): { Error: string } {
    return { Error: `class ${this.javaClass} : ${this.message}` };
  }
}

/** A validation failure of a node-built transaction (createtransaction), printed as a servlet error. */
export function contractValidateServletError(message: string): ServletError {
  return new ServletError('org.tron.core.exception.ContractValidateException', message);
}
