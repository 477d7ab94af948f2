/**
 * The `sui.rpc.v2` protobuf surface, taken from the SDK itself.
 *
 * @mysten/sui 1.45.2 does not export its generated message types, but every generated service client
 * carries its method descriptors (`methods[].I` / `.O` are the protobuf-ts message types with
 * `toBinary`/`fromBinary`/`fields`). We read them from a `SuiGrpcClient` that never opens a
 * connection, so the fake encodes and decodes with exactly the code the client uses. The TypeScript
 * types below are derived from the client's method signatures for the same reason.
 */
import { SuiGrpcClient } from '@mysten/sui/grpc';

type Client = SuiGrpcClient;
type Ledger = Client['ledgerService'];
type State = Client['stateService'];
type Execution = Client['transactionExecutionService'];
type Subscription = Client['subscriptionService'];

type RequestOf<F> = F extends (input: infer I, ...rest: never[]) => unknown ? I : never;
type ResponseOf<F> = F extends (...args: never[]) => { response: Promise<infer R> } ? R : never;

/** A protobuf-ts method descriptor as the SDK's generated clients hold it. */
export type MethodInfo = Ledger['methods'][number];
/** A protobuf-ts message type (reflection info plus binary codec). */
export type MessageType = MethodInfo['O'];
/** One field's reflection info. */
export type FieldInfo = MessageType['fields'][number];

export type GetServiceInfoResponse = ResponseOf<Ledger['getServiceInfo']>;
export type GetObjectRequest = RequestOf<Ledger['getObject']>;
export type GetObjectResponse = ResponseOf<Ledger['getObject']>;
export type BatchGetObjectsRequest = RequestOf<Ledger['batchGetObjects']>;
export type BatchGetObjectsResponse = ResponseOf<Ledger['batchGetObjects']>;
export type GetTransactionRequest = RequestOf<Ledger['getTransaction']>;
export type GetTransactionResponse = ResponseOf<Ledger['getTransaction']>;
export type BatchGetTransactionsRequest = RequestOf<Ledger['batchGetTransactions']>;
export type BatchGetTransactionsResponse = ResponseOf<Ledger['batchGetTransactions']>;
export type GetCheckpointRequest = RequestOf<Ledger['getCheckpoint']>;
export type GetCheckpointResponse = ResponseOf<Ledger['getCheckpoint']>;
export type GetEpochRequest = RequestOf<Ledger['getEpoch']>;
export type GetEpochResponse = ResponseOf<Ledger['getEpoch']>;
export type GetBalanceRequest = RequestOf<State['getBalance']>;
export type GetBalanceResponse = ResponseOf<State['getBalance']>;
export type ListBalancesRequest = RequestOf<State['listBalances']>;
export type ListBalancesResponse = ResponseOf<State['listBalances']>;
export type ListOwnedObjectsRequest = RequestOf<State['listOwnedObjects']>;
export type ListOwnedObjectsResponse = ResponseOf<State['listOwnedObjects']>;
export type GetCoinInfoRequest = RequestOf<State['getCoinInfo']>;
export type GetCoinInfoResponse = ResponseOf<State['getCoinInfo']>;
export type ExecuteTransactionRequest = RequestOf<Execution['executeTransaction']>;
export type ExecuteTransactionResponse = ResponseOf<Execution['executeTransaction']>;
export type SimulateTransactionRequest = RequestOf<Execution['simulateTransaction']>;
export type SimulateTransactionResponse = ResponseOf<Execution['simulateTransaction']>;
export type SubscribeCheckpointsRequest = RequestOf<Subscription['subscribeCheckpoints']>;

export type Checkpoint = NonNullable<GetCheckpointResponse['checkpoint']>;
export type CheckpointSummary = NonNullable<Checkpoint['summary']>;
export type ExecutedTransaction = Checkpoint['transactions'][number];
export type TransactionMessage = NonNullable<ExecutedTransaction['transaction']>;
export type TransactionEffects = NonNullable<ExecutedTransaction['effects']>;
export type ChangedObject = TransactionEffects['changedObjects'][number];
export type ExecutionStatus = NonNullable<TransactionEffects['status']>;
export type ExecutionError = NonNullable<ExecutionStatus['error']>;
export type GasCostSummary = NonNullable<TransactionEffects['gasUsed']>;
export type BalanceChange = ExecutedTransaction['balanceChanges'][number];
export type UserSignature = ExecutedTransaction['signatures'][number];
export type ObjectMessage = NonNullable<GetObjectResponse['object']>;
export type Owner = NonNullable<ObjectMessage['owner']>;
export type Timestamp = NonNullable<ExecutedTransaction['timestamp']>;
export type Epoch = NonNullable<GetEpochResponse['epoch']>;
export type Balance = NonNullable<GetBalanceResponse['balance']>;
export type RpcStatus = Extract<
  BatchGetObjectsResponse['objects'][number]['result'],
  { oneofKind: 'error' }
>['error'];

const offlineClient = new SuiGrpcClient({ network: 'localnet', baseUrl: 'http://127.0.0.1:9' });

const serviceClients = [
  offlineClient.ledgerService,
  offlineClient.stateService,
  offlineClient.transactionExecutionService,
  offlineClient.subscriptionService,
  offlineClient.movePackageService,
  offlineClient.signatureVerificationService,
  offlineClient.nameService,
] as const;

/** Every `sui.rpc.v2` method the SDK knows, keyed by its gRPC path `/<service>/<Method>`. */
export const METHODS: ReadonlyMap<string, MethodInfo> = new Map(
  serviceClients.flatMap((client) =>
    (client.methods as readonly MethodInfo[]).map((m) => [`/${m.service.typeName}/${m.name}`, m] as const),
  ),
);

/** The descriptor of one method by its gRPC path; throws if the SDK does not have it (a programming error). */
export function method(path: string): MethodInfo {
  const m = METHODS.get(path);
  if (!m) throw new Error(`sui.rpc.v2 method ${path} is not in @mysten/sui`);
  return m;
}

/** The message type of a message-typed field (`fieldType(GetCheckpointResponse, 'checkpoint')`). */
export function fieldType(type: MessageType, name: string): MessageType {
  const field = type.fields.find((f) => f.name === name || f.localName === name);
  if (field?.kind !== 'message') throw new Error(`${type.typeName}.${name} is not a message field`);
  return field.T();
}

/**
 * The numeric value of an enum member, looked up by name through reflection so that no protobuf
 * number is written by hand: `enumValue(ObjectType, 'owner.kind', 'ADDRESS')`.
 */
export function enumValue(type: MessageType, path: string, member: string): number {
  const parts = path.split('.');
  let current = type;
  for (const [i, part] of parts.entries()) {
    const field = current.fields.find((f) => f.name === part || f.localName === part);
    if (!field) throw new Error(`${current.typeName} has no field ${part}`);
    if (i < parts.length - 1) {
      if (field.kind !== 'message') throw new Error(`${current.typeName}.${part} is not a message`);
      current = field.T();
      continue;
    }
    if (field.kind !== 'enum') throw new Error(`${current.typeName}.${part} is not an enum`);
    const value = field.T()[1][member];
    if (typeof value !== 'number') throw new Error(`${field.T()[0]} has no member ${member}`);
    return value;
  }
  throw new Error(`empty enum path for ${type.typeName}`);
}

const ledger = (name: string) => method(`/sui.rpc.v2.LedgerService/${name}`);

/** Message types the fake builds, for read masks and enum lookups. */
export const TYPES = {
  checkpoint: fieldType(ledger('GetCheckpoint').O, 'checkpoint'),
  executedTransaction: fieldType(ledger('GetTransaction').O, 'transaction'),
  object: fieldType(ledger('GetObject').O, 'object'),
  epoch: fieldType(ledger('GetEpoch').O, 'epoch'),
  executeTransactionResponse: method('/sui.rpc.v2.TransactionExecutionService/ExecuteTransaction').O,
  simulateTransactionResponse: method('/sui.rpc.v2.TransactionExecutionService/SimulateTransaction').O,
  simulateTransactionRequest: method('/sui.rpc.v2.TransactionExecutionService/SimulateTransaction').I,
  subscribeCheckpointsResponse: method('/sui.rpc.v2.SubscriptionService/SubscribeCheckpoints').O,
};

const effectsType = fieldType(TYPES.executedTransaction, 'effects');
const errorType = fieldType(fieldType(effectsType, 'status'), 'error');
const txType = fieldType(TYPES.executedTransaction, 'transaction');

/** Enum values the fake emits, resolved by member name. */
export const ENUMS = {
  ownerAddress: enumValue(TYPES.object, 'owner.kind', 'ADDRESS'),
  ownerImmutable: enumValue(TYPES.object, 'owner.kind', 'IMMUTABLE'),
  inputExists: enumValue(effectsType, 'changed_objects.input_state', 'EXISTS'),
  inputDoesNotExist: enumValue(effectsType, 'changed_objects.input_state', 'DOES_NOT_EXIST'),
  outputObjectWrite: enumValue(effectsType, 'changed_objects.output_state', 'OBJECT_WRITE'),
  outputDoesNotExist: enumValue(effectsType, 'changed_objects.output_state', 'DOES_NOT_EXIST'),
  idNone: enumValue(effectsType, 'changed_objects.id_operation', 'NONE'),
  idCreated: enumValue(effectsType, 'changed_objects.id_operation', 'CREATED'),
  idDeleted: enumValue(effectsType, 'changed_objects.id_operation', 'DELETED'),
  expirationNone: enumValue(txType, 'expiration.kind', 'NONE'),
  expirationEpoch: enumValue(txType, 'expiration.kind', 'EPOCH'),
  /** `ExecutionError.kind` by member name, e.g. `errorKind('INSUFFICIENT_GAS')`. */
  errorKind: (name: string) => enumValue(errorType, 'kind', name),
  /** `CommandArgumentError.kind` by member name. */
  argumentErrorKind: (name: string) => enumValue(errorType, 'command_argument_error.kind', name),
  signatureScheme: (name: string) => enumValue(TYPES.executedTransaction, 'signatures.scheme', name),
};
