import {
  type Address,
  BaseError,
  createPublicClient,
  custom,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  parseTransaction,
  type Chain as ViemChain,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ActiveChain } from '../../config/active-chain.ts';
import type { Chain } from '../../domain/chains.ts';
import type { Logger } from '../../lib/logger.ts';
import { mapLimit } from '../../lib/map-limit.ts';
import {
  type BlockRef,
  type BroadcastResult,
  type ChainAdapter,
  type ChainHeads,
  ChainMismatchError,
  type ObservedTransfer,
  type PayoutLookup,
  PayoutRejectedError,
  type RecordedSpend,
  type SignedPayout,
  type SlotVerdict,
  type TokenSpec,
} from '../port.ts';
import { type EndpointStats, RpcEndpoints } from '../rpc/endpoints.ts';
import { jsonRpcCall, jsonRpcClient } from '../rpc/json-rpc.ts';
import { corroboratedVerdict, needsSecondOpinion } from '../slot-verdict.ts';
import { ERC20_ABI, TRANSFER_EVENT } from './erc20.ts';
import { isRangeError, LogRange } from './log-range.ts';

type TransferLog = {
  address: Address;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: number;
  blockTimestamp?: bigint | null;
  args: { from: Address; to: Address; value: bigint };
};

/** Gas a payout is budgeted for when estimating fees for the 422 check (pessimistic). */
const TOKEN_TRANSFER_GAS = 100_000n;
const NATIVE_TRANSFER_GAS = 21_000n;
/** The smallest raise a node accepts for a replacement is 10 % (geth's pricebump); 12.5 % clears every client. */
const REPLACEMENT_BUMP_PERMILLE = 1125n;
/** Recipients per eth_getLogs `to` filter; larger sets are split. */
const ADDRESSES_PER_QUERY = 200;

function messagesOf(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let i = 0; e && i < 8; i++) {
    const err = e as { shortMessage?: string; message?: string; details?: string; cause?: unknown };
    parts.push(err.shortMessage ?? '', err.details ?? '', err.message ?? '');
    e = err.cause;
  }
  return parts.join(' | ');
}

/** Whether an error says the EVM reverted the call (as opposed to an RPC or network failure). */
export function isRevert(error: unknown): boolean {
  return /execution reverted|reverted|revert/i.test(messagesOf(error));
}

/**
 * The EVM adapter (ETH, BSC, POLYGON, AVAX_C_CHAIN) on viem: deposits from ERC-20 Transfer logs
 * (adaptive eth_getLogs ranges) and native transfers from blocks, payouts signed locally
 * (EIP-1559 where configured, legacy gas price otherwise), RPC fail-over under it.
 */
export class EvmAdapter implements ChainAdapter {
  readonly family = 'evm' as const;
  readonly chain: Chain;
  readonly endpoints: RpcEndpoints;
  private readonly client: PublicClient;
  private readonly viemChain: ViemChain;
  private readonly logRange: LogRange;

  constructor(
    private readonly settings: ActiveChain,
    private readonly logger: Logger,
    options: { timeoutMs?: number } = {},
  ) {
    this.chain = settings.chain;
    this.endpoints = new RpcEndpoints(settings.rpc, logger, { timeoutMs: options.timeoutMs });
    const rpc = jsonRpcClient(this.endpoints);
    this.viemChain = defineChain({
      id: settings.chainId ?? 1,
      name: settings.chain,
      nativeCurrency: { name: 'native', symbol: 'NATIVE', decimals: 18 },
      rpcUrls: { default: { http: [] } },
    });
    this.client = createPublicClient({
      chain: this.viemChain,
      transport: custom(
        { request: ({ method, params }) => rpc(method, params as unknown[]) },
        { retryCount: 0 },
      ),
      cacheTime: 0,
    }) as PublicClient;
    this.logRange = new LogRange(settings.maxLogRange);
  }

  rpcStatistics(): EndpointStats[] {
    return this.endpoints.statistics();
  }

  async connect(): Promise<void> {
    const id = await this.client.getChainId();
    if (this.settings.chainId !== undefined && id !== this.settings.chainId) {
      throw new ChainMismatchError(
        `${this.chain}: the RPC serves chain id ${id}, but ${this.settings.chainId} is configured; the chain is disabled`,
      );
    }
  }

  async heads(): Promise<ChainHeads> {
    const head = Number(await this.client.getBlockNumber({ cacheTime: 0 }));
    let final: number;
    if (this.settings.confirmations === 'finalized') {
      const block = await this.client.getBlock({ blockTag: 'finalized' });
      final = Number(block.number);
    } else {
      final = head - Math.max(this.settings.confirmations, 1) + 1;
    }
    if (this.settings.confirmationFloor > 0)
      final = Math.min(final, head - this.settings.confirmationFloor + 1);
    return { head, final: Math.max(-1, Math.min(final, head)) };
  }

  async block(height: number): Promise<BlockRef | null> {
    try {
      const b = await this.client.getBlock({ blockNumber: BigInt(height) });
      return { number: Number(b.number), hash: b.hash, timestamp: Number(b.timestamp) };
    } catch (error) {
      if (/not found|could not be found/i.test(messagesOf(error))) return null;
      throw error;
    }
  }

  scanStep(): number {
    return this.logRange.current();
  }

  async scan(
    from: number,
    to: number,
    addresses: ReadonlySet<string>,
    tokens: TokenSpec[],
  ): Promise<ObservedTransfer[]> {
    if (addresses.size === 0 || from > to) return [];
    const contracts = tokens.filter((t) => t.contract !== null).map((t) => getAddress(t.contract as string));
    const out: ObservedTransfer[] = [];
    const blocks = new Map<number, Promise<BlockRef | null>>();
    const blockOf = (n: number) => {
      let p = blocks.get(n);
      if (!p) {
        p = this.block(n);
        blocks.set(n, p);
      }
      return p;
    };
    if (contracts.length > 0) {
      const recipients = [...addresses] as Address[];
      for (let i = 0; i < recipients.length; i += ADDRESSES_PER_QUERY) {
        const chunk = recipients.slice(i, i + ADDRESSES_PER_QUERY);
        const logs = await this.logsInRange(from, to, contracts, chunk);
        // Newer nodes put the block time on each log; otherwise read each block once.
        const untimed = [
          ...new Set(logs.filter((l) => l.blockTimestamp == null).map((l) => Number(l.blockNumber))),
        ];
        await mapLimit(untimed, 8, (h) => blockOf(h));
        for (const log of logs) {
          let timestamp = log.blockTimestamp == null ? null : Number(log.blockTimestamp);
          if (timestamp === null) {
            const ref = await blockOf(Number(log.blockNumber));
            if (!ref || ref.hash !== log.blockHash) continue; // the block changed under us: the step is retried
            timestamp = ref.timestamp;
          }
          out.push({
            txid: log.transactionHash,
            eventKey: String(log.logIndex),
            blockNum: Number(log.blockNumber),
            blockHash: log.blockHash,
            timestamp,
            from: getAddress(log.args.from),
            to: getAddress(log.args.to),
            contract: getAddress(log.address),
            amountBase: log.args.value,
            success: true,
          });
        }
      }
    }
    if (tokens.some((t) => t.contract === null))
      out.push(...(await this.nativeTransfers(from, to, addresses)));
    return out;
  }

  /** eth_getLogs over [from, to], split in halves while the provider refuses the range. */
  private async logsInRange(
    from: number,
    to: number,
    contracts: Address[],
    recipients: Address[],
  ): Promise<TransferLog[]> {
    try {
      const logs = await this.client.getLogs({
        address: contracts,
        event: TRANSFER_EVENT,
        args: { to: recipients },
        fromBlock: BigInt(from),
        toBlock: BigInt(to),
        strict: true,
      });
      this.logRange.succeeded();
      return logs as TransferLog[];
    } catch (error) {
      if (!isRangeError(error) || from === to) throw error;
      const step = this.logRange.refused(to - from + 1);
      this.logger.info({ chain: this.chain, from, to, step }, 'eth_getLogs range refused; shrinking');
      const mid = from + Math.floor((to - from) / 2);
      return [
        ...(await this.logsInRange(from, mid, contracts, recipients)),
        ...(await this.logsInRange(mid + 1, to, contracts, recipients)),
      ];
    }
  }

  /** Native coin deposits: transactions in the blocks whose recipient is watched, confirmed by receipt. */
  private async nativeTransfers(
    from: number,
    to: number,
    addresses: ReadonlySet<string>,
  ): Promise<ObservedTransfer[]> {
    const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const found: ObservedTransfer[] = [];
    await mapLimit(heights, 8, async (h) => {
      const block = await this.client.getBlock({ blockNumber: BigInt(h), includeTransactions: true });
      for (const tx of block.transactions) {
        if (!tx.to || tx.value === 0n) continue;
        const recipient = getAddress(tx.to);
        if (!addresses.has(recipient)) continue;
        const receipt = await this.client.getTransactionReceipt({ hash: tx.hash });
        found.push({
          txid: tx.hash,
          eventKey: 'native',
          blockNum: Number(block.number),
          blockHash: block.hash,
          timestamp: Number(block.timestamp),
          from: getAddress(tx.from),
          to: recipient,
          contract: null,
          amountBase: tx.value,
          success: receipt.status === 'success',
        });
      }
    });
    return found;
  }

  async balance(address: string, token: TokenSpec): Promise<bigint> {
    if (token.contract === null) return this.client.getBalance({ address: address as Address });
    return this.client.readContract({
      address: token.contract as Address,
      abi: ERC20_ABI,
      functionName: 'balanceOf',
      args: [address as Address],
    });
  }

  private async fees(): Promise<
    { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint }
  > {
    if (this.settings.eip1559) {
      const f = await this.client.estimateFeesPerGas();
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
    }
    const gasPrice = await this.client.getGasPrice();
    return { gasPrice: (gasPrice * 11n) / 10n };
  }

  async payoutFeeEstimate(_from: string, _to: string, token: TokenSpec): Promise<bigint> {
    const fees = await this.fees();
    const price = 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas;
    return price * (token.contract === null ? NATIVE_TRANSFER_GAS : TOKEN_TRANSFER_GAS);
  }

  async signPayout(input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  }): Promise<SignedPayout> {
    if (input.nonce === null) throw new Error('EVM payouts need a nonce');
    const account = privateKeyToAccount(`0x${input.privateKey.toString('hex')}`);
    if (account.address !== getAddress(input.from))
      throw new Error('The signing key does not match the hot wallet');
    const call =
      input.token.contract === null
        ? { to: getAddress(input.to), value: input.amountBase, data: undefined }
        : {
            to: getAddress(input.token.contract),
            value: 0n,
            data: encodeFunctionData({
              abi: ERC20_ABI,
              functionName: 'transfer',
              args: [getAddress(input.to), input.amountBase],
            }),
          };
    let gas: bigint;
    try {
      gas = await this.client.estimateGas({ account: account.address, ...call });
    } catch (error) {
      if (isRevert(error)) throw new PayoutRejectedError(`The transfer would revert: ${firstLine(error)}`);
      throw error;
    }
    const fees = await this.fees();
    return this.sign(input.privateKey, { nonce: input.nonce, gas: (gas * 12n) / 10n, ...call }, fees);
  }

  private async sign(
    privateKey: Buffer,
    tx: { nonce: number; gas: bigint; to: Address; value: bigint; data: Hex | undefined },
    fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint },
  ): Promise<SignedPayout> {
    const account = privateKeyToAccount(`0x${privateKey.toString('hex')}`);
    const serialized = await account.signTransaction({
      chainId: this.viemChain.id,
      ...tx,
      ...('gasPrice' in fees ? { type: 'legacy', gasPrice: fees.gasPrice } : { type: 'eip1559', ...fees }),
    } as Parameters<typeof account.signTransaction>[0]);
    return {
      txHash: keccak256(serialized),
      raw: serialized,
      nonce: tx.nonce,
      validUntil: null,
      slot: `nonce ${tx.nonce}`,
      maxFeePerGas: 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas,
      maxPriorityFeePerGas: 'gasPrice' in fees ? null : fees.maxPriorityFeePerGas,
    };
  }

  /**
   * A replacement of a stuck transaction in its slot: same nonce, gas, recipient and call, paying
   * today's fee but at least 12.5 % more than before (what nodes require to replace), and never
   * more than `capWei` per gas. Null when today's fee is not above what it pays, or the cap leaves
   * no room for the minimum raise.
   */
  async reprice(input: { privateKey: Buffer; raw: string; capWei: bigint }): Promise<SignedPayout | null> {
    const old = parseTransaction(input.raw as Hex);
    if (old.nonce === undefined || old.gas === undefined || !old.to)
      throw new Error('not a payout transaction');
    const bump = (v: bigint) => (v * REPLACEMENT_BUMP_PERMILLE + 999n) / 1000n;
    const larger = (a: bigint, b: bigint) => (a < b ? b : a);
    const smaller = (a: bigint, b: bigint) => (a < b ? a : b);
    const now = await this.fees();
    const tx = { nonce: old.nonce, gas: old.gas, to: old.to, value: old.value ?? 0n, data: old.data };
    if (old.type === 'eip1559' && 'maxFeePerGas' in now) {
      const oldMax = old.maxFeePerGas ?? 0n;
      const oldTip = old.maxPriorityFeePerGas ?? 0n;
      if (now.maxFeePerGas <= oldMax) return null;
      const max = smaller(larger(now.maxFeePerGas, bump(oldMax)), input.capWei);
      const tip = larger(now.maxPriorityFeePerGas, bump(oldTip));
      if (max < bump(oldMax) || tip > max) return null;
      return this.sign(input.privateKey, tx, { maxFeePerGas: max, maxPriorityFeePerGas: tip });
    }
    const oldPrice = old.gasPrice ?? 0n;
    const price = 'gasPrice' in now ? now.gasPrice : now.maxFeePerGas;
    if (price <= oldPrice) return null;
    const wanted = larger(price, bump(oldPrice));
    const capped = smaller(wanted, input.capWei);
    if (capped < bump(oldPrice)) return null;
    return this.sign(input.privateKey, tx, { gasPrice: capped });
  }

  async broadcast(signed: { raw: string; txHash: string }): Promise<BroadcastResult> {
    try {
      await this.client.sendRawTransaction({ serializedTransaction: signed.raw as Hex });
      return { ok: true };
    } catch (error) {
      const text = messagesOf(error);
      if (/already known|known transaction|already imported|AlreadyKnown/i.test(text)) return { ok: true };
      if (/nonce too low|nonce has already been used|replacement transaction underpriced/i.test(text)) {
        return { ok: false, permanent: true, error: firstLine(error) };
      }
      if (error instanceof BaseError && !/fetch failed|timeout|HTTP 5|HTTP 429/i.test(text)) {
        return { ok: false, permanent: false, error: firstLine(error) };
      }
      throw error;
    }
  }

  async lookup(txHash: string): Promise<PayoutLookup> {
    const hash = txHash as Hex;
    try {
      const receipt = await this.client.getTransactionReceipt({ hash });
      const block = await this.block(Number(receipt.blockNumber));
      if (!block || block.hash !== receipt.blockHash) return { state: 'pending' };
      return {
        state: 'mined',
        blockNum: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        timestamp: block.timestamp,
        success: receipt.status === 'success',
        ...(receipt.status === 'success' ? {} : { error: 'The transaction reverted.' }),
      };
    } catch (error) {
      if (!/could not be found|not found/i.test(messagesOf(error))) throw error;
    }
    try {
      await this.client.getTransaction({ hash });
      return { state: 'pending' };
    } catch (error) {
      if (/could not be found|not found/i.test(messagesOf(error))) return { state: 'unknown' };
      throw error;
    }
  }

  /**
   * The slot of an EVM payout is its nonce. On one pinned endpoint (then again on a second): a
   * receipt of any of the payout's transactions means it landed; a nonce the account has not used
   * yet, or a transaction of ours the node still knows, means it can still land; a nonce used by a
   * transaction Kassa recorded for another purpose proves ours never will. A used nonce with no
   * transaction of Kassa's to show for it is unexplained: a lagging backend, or the key used
   * elsewhere. Kassa holds the payout rather than pay it again.
   */
  async judgeSlot(input: {
    from: string;
    attempts: RecordedSpend[];
    recorded: RecordedSpend[];
  }): Promise<SlotVerdict> {
    const nonce = input.attempts[0]?.nonce;
    if (nonce === null || nonce === undefined) return { state: 'open', detail: 'no nonce to judge' };
    const others = input.recorded.filter((r) => r.nonce === nonce);
    const views = await this.endpoints.corroborate(async (url, signal): Promise<SlotVerdict> => {
      const call = <T>(method: string, params: unknown[]) => jsonRpcCall<T>(url, method, params, signal);
      for (const a of input.attempts) {
        if (await call('eth_getTransactionReceipt', [a.txHash])) return { state: 'landed', txHash: a.txHash };
      }
      const used = Number(BigInt(await call<string>('eth_getTransactionCount', [input.from, 'latest'])));
      if (used <= nonce) return { state: 'open', detail: `nonce ${nonce} is not used yet (${used} sent)` };
      for (const a of input.attempts) {
        if (await call('eth_getTransactionByHash', [a.txHash]))
          return { state: 'open', detail: `${a.txHash} is known to the node without a receipt yet` };
      }
      for (const o of others) {
        if (await call('eth_getTransactionReceipt', [o.txHash]))
          return { state: 'dead', proof: `nonce ${nonce} was used by Kassa's transaction ${o.txHash}` };
      }
      return {
        state: 'unexplained',
        detail: `nonce ${nonce} of ${input.from} is used (${used} sent), but no transaction of this payout (${input.attempts.map((a) => a.txHash).join(', ')}) nor any other Kassa recorded is on chain`,
      };
    }, needsSecondOpinion);
    return corroboratedVerdict(views);
  }

  async nextNonce(address: string): Promise<number> {
    return this.client.getTransactionCount({ address: address as Address, blockTag: 'pending' });
  }
}

function firstLine(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string };
  return (e.shortMessage ?? e.message ?? String(error)).split('\n')[0] ?? 'unknown error';
}
