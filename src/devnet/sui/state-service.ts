/**
 * `sui.rpc.v2.StateService`: balances (coin objects plus SIP-58 address balance, in one total),
 * owned objects (filterable by type, e.g. `0x2::coin::Coin<T>`; address balances are not objects
 * and never listed), and coin metadata. Page tokens are opaque bytes, absent on the last page.
 */
import type { FakeSuiChain } from './chain.ts';
import { normalizeType, typeMatches } from './coin-types.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import { objectTypeOf } from './objects.ts';
import type {
  GetBalanceRequest,
  GetBalanceResponse,
  GetCoinInfoRequest,
  GetCoinInfoResponse,
  ListBalancesRequest,
  ListBalancesResponse,
  ListOwnedObjectsRequest,
  ListOwnedObjectsResponse,
} from './proto.ts';
import { TYPES } from './proto.ts';
import { applyReadMask, DEFAULT_MASKS, parseReadMask } from './read-mask.ts';
import { objectMessage } from './render.ts';
import { pageSize, requireAddress, type ServiceImplementation } from './service.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Items after the page token (the last key of the previous page), and the next token. */
function page<T>(items: T[], key: (item: T) => string, token: Uint8Array | undefined, size: number) {
  const after = token && token.length > 0 ? decoder.decode(token) : undefined;
  const start = after === undefined ? 0 : items.findIndex((i) => key(i) > after);
  const rest = start < 0 ? [] : items.slice(start);
  const pageItems = rest.slice(0, size);
  const last = pageItems.at(-1);
  return {
    items: pageItems,
    nextPageToken: rest.length > size && last !== undefined ? encoder.encode(key(last)) : undefined,
  };
}

/** Handlers of `sui.rpc.v2.StateService` (ListDynamicFields is not served: UNIMPLEMENTED). */
export const stateService: ServiceImplementation = {
  unary: {
    GetBalance: (chain: FakeSuiChain, request: GetBalanceRequest): GetBalanceResponse => {
      const owner = requireAddress(request.owner, 'owner');
      if (!request.coinType) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'missing coin_type');
      const coinType = normalizeType(request.coinType);
      const entry = chain.store.balances(owner).get(coinType);
      return { balance: { coinType, balance: entry ? entry.coins + entry.address : 0n } };
    },

    ListBalances: (chain: FakeSuiChain, request: ListBalancesRequest): ListBalancesResponse => {
      const owner = requireAddress(request.owner, 'owner');
      const all = [...chain.store.balances(owner)]
        .map(([coinType, e]) => ({ coinType, balance: e.coins + e.address }))
        .sort((a, b) => a.coinType.localeCompare(b.coinType));
      const { items, nextPageToken } = page(
        all,
        (b) => b.coinType,
        request.pageToken,
        pageSize(request.pageSize, 50, 1000),
      );
      return { balances: items, nextPageToken };
    },

    ListOwnedObjects: (chain: FakeSuiChain, request: ListOwnedObjectsRequest): ListOwnedObjectsResponse => {
      const owner = requireAddress(request.owner, 'owner');
      const filter = request.objectType ? normalizeType(request.objectType) : undefined;
      const mask = parseReadMask(TYPES.object, request.readMask, DEFAULT_MASKS.ownedObject);
      const owned = chain.store
        .ownedBy(owner)
        .filter((o) => filter === undefined || typeMatches(objectTypeOf(o), filter));
      const { items, nextPageToken } = page(
        owned,
        (o) => o.id,
        request.pageToken,
        pageSize(request.pageSize, 50, 1000),
      );
      return {
        objects: items.map((o) => applyReadMask(TYPES.object, objectMessage(o), mask)),
        nextPageToken,
      };
    },

    GetCoinInfo: (chain: FakeSuiChain, request: GetCoinInfoRequest): GetCoinInfoResponse => {
      if (!request.coinType) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'missing coin_type');
      const coinType = normalizeType(request.coinType);
      const info = chain.coins.get(coinType);
      if (!info) throw new GrpcError(GrpcCode.NOT_FOUND, `Coin type ${coinType} not found`);
      const capId = chain.faucet.treasuryCaps.get(coinType);
      const cap = capId ? chain.store.get(capId) : undefined;
      return {
        coinType,
        metadata: {
          decimals: info.decimals,
          name: info.name,
          symbol: info.symbol,
          description: info.description,
          iconUrl: info.iconUrl,
        },
        treasury: cap?.kind === 'treasury-cap' ? { id: cap.id, totalSupply: cap.totalSupply } : undefined,
      };
    },
  },
};
