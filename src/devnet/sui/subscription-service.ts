/**
 * `sui.rpc.v2.SubscriptionService.SubscribeCheckpoints`: a server stream of every checkpoint sealed
 * after the call starts, in order and without gaps, each with its cursor (sequence number).
 */
import type { FakeSuiChain } from './chain.ts';
import { checkpointMessage } from './ledger.ts';
import type { SubscribeCheckpointsRequest } from './proto.ts';
import { TYPES } from './proto.ts';
import { applyReadMask, DEFAULT_MASKS, parseReadMask } from './read-mask.ts';
import type { ServiceImplementation } from './service.ts';

/** Handlers of `sui.rpc.v2.SubscriptionService`. */
export const subscriptionService: ServiceImplementation = {
  unary: {},
  streaming: {
    SubscribeCheckpoints: (chain: FakeSuiChain, request: SubscribeCheckpointsRequest, send) => {
      const mask = parseReadMask(TYPES.checkpoint, request.readMask, DEFAULT_MASKS.checkpoint);
      return chain.ledger.onCheckpoint((record) => {
        send({
          cursor: record.sequenceNumber,
          checkpoint: applyReadMask(TYPES.checkpoint, checkpointMessage(record), mask),
        });
      });
    },
  },
};
