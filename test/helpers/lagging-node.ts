import type { FaultProxy, FaultRule, RuleHandle } from './fault-proxy.ts';

/**
 * What a node stuck at an old height answers, as rules on a fault proxy in front of a current one:
 * its head is that height, it has no block above it, and it does not know the transactions mined
 * since. A load balancer whose backends are not in step answers like this for some requests and
 * not others: `only` limits the lag to some parts (e.g. blocks and transactions while the head
 * comes from a current backend).
 */
export interface LagOptions {
  /** Only this endpoint of the proxy lags (default: every endpoint). */
  endpoint?: string;
  /** Only these reads lag (default: all of them). */
  only?: LagPart[];
}

/** The reads a lag changes: the head (and final) block, blocks by height, logs, transaction lookups. */
export type LagPart = 'head' | 'blocks' | 'logs' | 'transactions';

/** The rules of one lag, each named by the part it plays, added and removed together. */
function combine(
  proxy: FaultProxy,
  rules: (FaultRule & { part: LagPart })[],
  options: LagOptions,
): RuleHandle {
  const handles = rules
    .filter((r) => !options.only || options.only.includes(r.part))
    .map(({ part: _part, ...r }) =>
      proxy.add({ ...r, ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }) }),
    );
  return {
    get fired() {
      return handles.reduce((sum, h) => sum + h.fired, 0);
    },
    remove() {
      for (const h of handles) h.remove();
    },
  };
}

const hexHeight = (value: unknown): number | null =>
  typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value) ? Number.parseInt(value, 16) : null;

/**
 * An EVM node stuck at block `height`: eth_blockNumber says so, blocks above it are null, receipts
 * and transactions mined above it are unknown (null), and eth_getLogs refuses a range reaching past
 * it with -32602, as geth, Nethermind, Besu, Erigon and reth do (ethereum/execution-apis#875).
 */
export function lagEvm(proxy: FaultProxy, height: number, options: LagOptions = {}): RuleHandle {
  const minedAbove = (tx: unknown) => {
    const n = hexHeight((tx as { blockNumber?: unknown } | null)?.blockNumber);
    return n !== null && n > height;
  };
  return combine(
    proxy,
    [
      {
        part: 'head',
        method: 'eth_blockNumber',
        fault: { kind: 'result', result: `0x${height.toString(16)}` },
      },
      {
        part: 'blocks',
        method: 'eth_getBlockByNumber',
        match: (c) => (hexHeight((c.params as unknown[])?.[0]) ?? -1) > height,
        fault: { kind: 'result', result: null },
      },
      {
        part: 'logs',
        method: 'eth_getLogs',
        match: (c) => {
          const to = (c.params as { toBlock?: unknown }[])?.[0]?.toBlock;
          return to === 'latest' || (hexHeight(to) ?? -1) > height;
        },
        fault: {
          kind: 'rpc-error',
          code: -32602,
          message: `block range extends beyond current head block: head ${height}`,
        },
      },
      {
        part: 'transactions',
        method: 'eth_getTransactionReceipt',
        fault: { kind: 'result', result: (r: unknown) => (minedAbove(r) ? null : r) },
      },
      {
        part: 'transactions',
        method: 'eth_getTransactionByHash',
        fault: { kind: 'result', result: (t: unknown) => (minedAbove(t) ? null : t) },
      },
    ],
    options,
  );
}

/** A java-tron block as its HTTP API shows it (only what the lag rules read). */
type TronBlock = { block_header?: { raw_data?: { number?: number } } };
const tronHeight = (b: unknown) => (b as TronBlock)?.block_header?.raw_data?.number ?? -1;

/**
 * A java-tron node stuck at block `height`: `getblock`/`getnowblock` show that block (and the
 * solidified view the solid block it had then), blocks above it are `{}`, `getblockbylimitnext` stops
 * at it, and the transactions in `hidden` (mined above it) are unknown. `head` and `solid` are that
 * node's blocks as the fake node served them (`/wallet/getblock` with `detail: false`).
 */
export function lagTron(
  proxy: FaultProxy,
  stuck: { height: number; head: unknown; solid: unknown; hidden?: Iterable<string> },
  options: LagOptions = {},
): RuleHandle {
  const { height } = stuck;
  const hidden = new Set(stuck.hidden ?? []);
  const asked = (c: { params: unknown }) => c.params as Record<string, unknown> | undefined;
  const latest = (c: { params: unknown }) => asked(c)?.id_or_num === undefined;
  const above = (c: { params: unknown }) => {
    const p = asked(c);
    const n = Number(p?.id_or_num ?? p?.num ?? -1);
    return Number.isFinite(n) && n > height;
  };
  const unknownTx = (c: { params: unknown }) => hidden.has(String(asked(c)?.value ?? ''));
  return combine(
    proxy,
    [
      {
        part: 'head',
        method: '/wallet/getblock',
        match: latest,
        fault: { kind: 'rewrite', body: () => stuck.head },
      },
      { part: 'head', method: '/wallet/getnowblock', fault: { kind: 'rewrite', body: () => stuck.head } },
      {
        part: 'head',
        method: '/walletsolidity/getblock',
        match: latest,
        fault: { kind: 'rewrite', body: () => stuck.solid },
      },
      {
        part: 'head',
        method: '/walletsolidity/getnowblock',
        fault: { kind: 'rewrite', body: () => stuck.solid },
      },
      {
        part: 'blocks',
        method: '/wallet/getblock',
        match: above,
        fault: { kind: 'rewrite', body: () => ({}) },
      },
      {
        part: 'blocks',
        method: '/wallet/getblockbynum',
        match: above,
        fault: { kind: 'rewrite', body: () => ({}) },
      },
      {
        part: 'blocks',
        method: '/wallet/getblockbylimitnext',
        fault: {
          kind: 'rewrite',
          body: (answer) => {
            const blocks = ((answer as { block?: unknown[] })?.block ?? []).filter(
              (b) => tronHeight(b) <= height,
            );
            return blocks.length === 0 ? {} : { block: blocks };
          },
        },
      },
      {
        part: 'logs',
        method: '/wallet/gettransactioninfobyblocknum',
        match: above,
        fault: { kind: 'rewrite', body: () => [] },
      },
      ...[
        '/wallet/gettransactioninfobyid',
        '/walletsolidity/gettransactioninfobyid',
        '/wallet/gettransactionbyid',
      ].map((method) => ({
        part: 'transactions' as const,
        method,
        match: unknownTx,
        fault: { kind: 'rewrite' as const, body: () => ({}) },
      })),
    ],
    options,
  );
}

/** A gRPC NOT_FOUND, as the Sui node answers for what it does not have. */
const notFound = (message: string) => ({ kind: 'grpc-status' as const, code: 5, message });

/**
 * A Sui full node stuck at checkpoint `height`: GetServiceInfo reports it, checkpoints above it are
 * NOT_FOUND, and the transactions in `hidden` (executed since) are NOT_FOUND.
 */
export function lagSui(
  proxy: FaultProxy,
  stuck: { height: number; hidden?: Iterable<string> },
  options: LagOptions = {},
): RuleHandle {
  const hidden = new Set(stuck.hidden ?? []);
  const sequence = (c: { params: unknown }) =>
    (c.params as { checkpointId?: { sequenceNumber?: bigint } } | undefined)?.checkpointId?.sequenceNumber;
  return combine(
    proxy,
    [
      {
        part: 'head',
        method: 'GetServiceInfo',
        fault: {
          kind: 'rewrite',
          body: (info) => ({ ...(info as object), checkpointHeight: BigInt(stuck.height) }),
        },
      },
      {
        part: 'blocks',
        method: 'GetCheckpoint',
        match: (c) => (sequence(c) ?? -1n) > BigInt(stuck.height),
        fault: notFound('checkpoint not found'),
      },
      {
        part: 'transactions',
        method: 'GetTransaction',
        match: (c) => hidden.has(String((c.params as { digest?: string } | undefined)?.digest)),
        fault: notFound('transaction not found'),
      },
    ],
    options,
  );
}
