/**
 * `sui.rpc.v2.LedgerService`: service info, objects (live or at a version), transactions,
 * checkpoints (latest, by sequence number or digest) and the epoch. Unknown digests, ids,
 * versions and sequence numbers answer NOT_FOUND as the real node does.
 */
import type { FakeSuiChain } from './chain.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import { checkpointMessage } from './ledger.ts';
import type {
  BatchGetObjectsRequest,
  BatchGetObjectsResponse,
  BatchGetTransactionsRequest,
  BatchGetTransactionsResponse,
  Epoch,
  ExecutedTransaction,
  GetCheckpointRequest,
  GetCheckpointResponse,
  GetEpochRequest,
  GetEpochResponse,
  GetObjectRequest,
  GetObjectResponse,
  GetServiceInfoResponse,
  GetTransactionRequest,
  GetTransactionResponse,
  ObjectMessage,
  RpcStatus,
} from './proto.ts';
import { TYPES } from './proto.ts';
import { applyReadMask, DEFAULT_MASKS, masked, parseReadMask } from './read-mask.ts';
import { objectMessage, timestampOf } from './render.ts';
import { requireAddress, requireDigest, type ServiceImplementation } from './service.ts';

const MAX_BATCH_OBJECTS = 1000;
const MAX_BATCH_TRANSACTIONS = 200;

function statusOf(error: unknown): RpcStatus {
  if (error instanceof GrpcError) return { code: error.code, message: error.message, details: [] };
  throw error;
}

function findObject(chain: FakeSuiChain, request: GetObjectRequest): ObjectMessage {
  const id = requireAddress(request.objectId, 'object_id');
  if (request.version !== undefined) {
    const obj = chain.store.getAt(id, request.version);
    if (!obj)
      throw new GrpcError(GrpcCode.NOT_FOUND, `Object ${id} with version ${request.version} not found`);
    return objectMessage(obj);
  }
  const obj = chain.store.get(id);
  if (!obj) throw new GrpcError(GrpcCode.NOT_FOUND, `Object ${id} not found`);
  return objectMessage(obj);
}

function findTransaction(chain: FakeSuiChain, digest: string | undefined): ExecutedTransaction {
  const d = requireDigest(digest, 'digest');
  const record = chain.ledger.get(d);
  if (!record) throw new GrpcError(GrpcCode.NOT_FOUND, `Transaction ${d} not found`);
  return record.executed;
}

function epochMessage(chain: FakeSuiChain): Epoch {
  return {
    epoch: chain.params.epoch,
    firstCheckpoint: 0n,
    start: timestampOf(chain.genesisTimestampMs),
    referenceGasPrice: chain.params.referenceGasPrice,
    protocolConfig: { protocolVersion: 1n, featureFlags: {}, attributes: {} },
  };
}

/** Handlers of `sui.rpc.v2.LedgerService`. */
export const ledgerService: ServiceImplementation = {
  unary: {
    GetServiceInfo: (chain: FakeSuiChain): GetServiceInfoResponse => ({
      chainId: chain.chainId,
      chain: 'localnet',
      epoch: chain.params.epoch,
      checkpointHeight: chain.height(),
      timestamp: timestampOf(chain.ledger.latest.timestampMs),
      lowestAvailableCheckpoint: 0n,
      lowestAvailableCheckpointObjects: 0n,
      server: 'kassa-fake-sui',
    }),

    GetObject: (chain: FakeSuiChain, request: GetObjectRequest): GetObjectResponse => ({
      object: masked(TYPES.object, findObject(chain, request), request.readMask, DEFAULT_MASKS.object),
    }),

    BatchGetObjects: (chain: FakeSuiChain, request: BatchGetObjectsRequest): BatchGetObjectsResponse => {
      if (request.requests.length > MAX_BATCH_OBJECTS) {
        throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `too many requests; max ${MAX_BATCH_OBJECTS}`);
      }
      const mask = parseReadMask(TYPES.object, request.readMask, DEFAULT_MASKS.object);
      return {
        objects: request.requests.map((r) => {
          try {
            return {
              result: {
                oneofKind: 'object',
                object: applyReadMask(TYPES.object, findObject(chain, r), mask),
              },
            };
          } catch (error) {
            return { result: { oneofKind: 'error', error: statusOf(error) } };
          }
        }),
      };
    },

    GetTransaction: (chain: FakeSuiChain, request: GetTransactionRequest): GetTransactionResponse => ({
      transaction: masked(
        TYPES.executedTransaction,
        findTransaction(chain, request.digest),
        request.readMask,
        DEFAULT_MASKS.transaction,
      ),
    }),

    BatchGetTransactions: (
      chain: FakeSuiChain,
      request: BatchGetTransactionsRequest,
    ): BatchGetTransactionsResponse => {
      if (request.digests.length > MAX_BATCH_TRANSACTIONS) {
        throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `too many digests; max ${MAX_BATCH_TRANSACTIONS}`);
      }
      const mask = parseReadMask(TYPES.executedTransaction, request.readMask, DEFAULT_MASKS.transaction);
      return {
        transactions: request.digests.map((digest) => {
          try {
            const tx = applyReadMask(TYPES.executedTransaction, findTransaction(chain, digest), mask);
            return { result: { oneofKind: 'transaction', transaction: tx } };
          } catch (error) {
            return { result: { oneofKind: 'error', error: statusOf(error) } };
          }
        }),
      };
    },

    GetCheckpoint: (chain: FakeSuiChain, request: GetCheckpointRequest): GetCheckpointResponse => {
      const id = request.checkpointId;
      let record = chain.ledger.latest;
      if (id.oneofKind === 'sequenceNumber') {
        const found = chain.ledger.checkpoint(id.sequenceNumber);
        if (!found) throw new GrpcError(GrpcCode.NOT_FOUND, `Checkpoint ${id.sequenceNumber} not found`);
        record = found;
      } else if (id.oneofKind === 'digest') {
        const found = chain.ledger.checkpointByDigest(requireDigest(id.digest, 'digest'));
        if (!found) throw new GrpcError(GrpcCode.NOT_FOUND, `Checkpoint ${id.digest} not found`);
        record = found;
      }
      return {
        checkpoint: masked(
          TYPES.checkpoint,
          checkpointMessage(record),
          request.readMask,
          DEFAULT_MASKS.checkpoint,
        ),
      };
    },

    GetEpoch: (chain: FakeSuiChain, request: GetEpochRequest): GetEpochResponse => {
      if (request.epoch !== undefined && request.epoch !== chain.params.epoch) {
        throw new GrpcError(GrpcCode.NOT_FOUND, `Epoch ${request.epoch} not found`);
      }
      return { epoch: masked(TYPES.epoch, epochMessage(chain), request.readMask, DEFAULT_MASKS.epoch) };
    },
  },
};
