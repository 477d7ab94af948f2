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
import { RpcEndpoints, TransientRpcError } from '../rpc/endpoints.ts';
import { corroboratedVerdict, needsSecondOpinion } from '../slot-verdict.ts';
import { addressOfKey, addressWord, toHex20, toHex41, wordToHex20 } from './address.ts';
import {
  type ChainParams,
  DEFAULT_FEE_LIMIT_CAP,
  FALLBACK_TRANSFER_ENERGY,
  feeLimitFor,
  type Resources,
  readChainParams,
  readResources,
  tokenTransferBurn,
  trxTransferBurn,
} from './fees.ts';
import { type NodeJson, type TronCall, TronHttp, TronNodeError } from './http.ts';
import {
  buildTransaction,
  expirationOf,
  type PayoutContract,
  signTransaction,
  type TronTx,
} from './transaction.ts';
import {
  assertInfosMatch,
  blockRef,
  decodeTransferLog,
  header,
  infoFailed,
  isEmpty,
  nativeTransfers,
  needsInfos,
  num,
  tokenTransfers,
  type Watch,
} from './wire.ts';

/**
 * Blocks per scan step (lowered by the chain's `maxLogRange` setting): one getblockbylimitnext per
 * BLOCKS_PER_REQUEST blocks, one TransactionInfo request per block that has contract calls.
 */
const SCAN_STEP = 200;
/** getblockbylimitnext allows 100; fewer keeps a response of busy mainnet blocks to a few MB. */
const BLOCKS_PER_REQUEST = 50;
const BLOCK_REQUESTS_IN_FLIGHT = 4;
const INFO_REQUESTS_IN_FLIGHT = 8;
/** How far past the head block a payout transaction stays valid (java-tron accepts up to 24 h; tronweb uses 60 s). */
const DEFAULT_EXPIRATION_MS = 3 * 60_000;
/**
 * A transaction counts as unable to land only once the SOLIDIFIED block is this much younger than
 * its expiration: no block that could still change may include it, and a lagging node behind a
 * load balancer has had time to catch up.
 */
const NEVER_LAND_MARGIN_MS = 60_000;
const PARAMS_TTL_MS = 10 * 60_000;
/** A fresh address nobody holds tokens at: simulating a transfer to it prices the worst case (a new holder). */
const PROBE_ADDRESS = '41956eb29649d419ec338e42a1dc44dc3b13f14a69';
const TRANSFER_SELECTOR = 'a9059cbb';
const PERMANENT_BROADCAST_CODES = new Set([
  'SIGERROR',
  'TAPOS_ERROR',
  'TRANSACTION_EXPIRATION_ERROR',
  'TOO_BIG_TRANSACTION_ERROR',
]);
const TRANSIENT_BROADCAST_CODES = new Set([
  'SERVER_BUSY',
  'NO_CONNECTION',
  'NOT_ENOUGH_EFFECTIVE_CONNECTION',
  'BLOCK_UNSOLIDIFIED',
]);

/** A TRC-20 call the contract would revert, with its reason. */
class TransferReverts extends Error {}

/** Options for tests and operators. */
export interface TronAdapterOptions {
  /** per-request timeout (ms) before failing over */
  timeoutMs?: number;
  /** highest fee_limit a payout may carry, in sun */
  feeLimitCap?: bigint;
  /** how long after the head block a payout transaction expires (ms) */
  expirationMs?: number;
}

/** Hex of UTF-8 text (java-tron's `message`/`resMessage` with visible=false), decoded. */
function fromHexText(hex: unknown): string {
  const text = String(hex ?? '');
  return /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex').toString('utf8') : text;
}

function uint256(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new RangeError(`uint256 out of range: ${value}`);
  return value.toString(16).padStart(64, '0');
}

function formatTrx(sun: bigint): string {
  const whole = sun / 1_000_000n;
  const frac = (sun % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/**
 * The TRON adapter on the java-tron HTTP API (tronweb only for addresses, protobuf and signing):
 * deposits from TRC-20 Transfer logs in each block's TransactionInfo and from TRX TransferContract
 * transactions, finality = the solidified block by default, payouts built and signed locally with
 * a fee_limit from the energy estimate, every request through the fail-over endpoints.
 */
export class TronAdapter implements ChainAdapter {
  readonly family = 'tron' as const;
  readonly chain: Chain;
  readonly endpoints: RpcEndpoints;
  private readonly http: TronHttp;
  private readonly feeLimitCap: bigint;
  private readonly expirationMs: number;
  private params: { value: ChainParams; at: number } | null = null;
  /** base58 → 20-byte hex, for every address ever watched (deposit addresses never change) */
  private readonly hexCache = new Map<string, string>();
  /** false once the node answered 404 to /wallet/getblock (java-tron before 4.7) */
  private hasGetBlock = true;

  constructor(
    private readonly settings: ActiveChain,
    private readonly logger: Logger,
    options: TronAdapterOptions = {},
  ) {
    this.chain = settings.chain;
    this.endpoints = new RpcEndpoints(settings.rpc, logger, { timeoutMs: options.timeoutMs });
    this.http = new TronHttp(this.endpoints);
    this.feeLimitCap = options.feeLimitCap ?? DEFAULT_FEE_LIMIT_CAP;
    this.expirationMs = options.expirationMs ?? DEFAULT_EXPIRATION_MS;
  }

  async connect(): Promise<void> {
    await this.latest('head');
    if (this.settings.chainId !== undefined) {
      const genesis = await this.http.call('/wallet/getblockbynum', { num: 0 });
      const id = isEmpty(genesis) ? '' : header(genesis).id;
      const chainId = Number.parseInt(id.slice(-8) || '0', 16);
      if (chainId !== this.settings.chainId) {
        throw new ChainMismatchError(
          `${this.chain}: the RPC serves chain id ${chainId} (genesis ${id}), but ${this.settings.chainId} is configured; the chain is disabled`,
        );
      }
    }
    for (const token of this.settings.tokens) {
      if (token.contract === null) continue;
      let hex: string;
      try {
        hex = toHex41(token.contract);
      } catch {
        throw new ChainMismatchError(
          `${this.chain}: ${token.symbol} contract ${token.contract} is not a TRON address`,
        );
      }
      if (isEmpty(await this.http.call('/wallet/getcontract', { value: hex }))) {
        throw new ChainMismatchError(
          `${this.chain}: ${token.symbol} contract ${token.contract} does not exist on this RPC; is it on the configured network? The chain is disabled`,
        );
      }
    }
  }

  async heads(): Promise<ChainHeads> {
    const finalized = this.settings.confirmations === 'finalized';
    const [headBlock, solidBlock] = await Promise.all([
      this.latest('head'),
      finalized ? this.latest('solid') : Promise.resolve(null),
    ]);
    const head = headBlock.number;
    let final =
      solidBlock !== null ? solidBlock.number : head - Math.max(this.settings.confirmations as number, 1) + 1;
    if (this.settings.confirmationFloor > 0)
      final = Math.min(final, head - this.settings.confirmationFloor + 1);
    return { head, final: Math.max(-1, Math.min(final, head)) };
  }

  /**
   * The latest block header of the head or the solidified view: `getblock {detail: false}` (a
   * header only; getnowblock carries every transaction of a busy mainnet block), or getnowblock on
   * a node without getblock (java-tron before 4.7).
   */
  private async latest(view: 'head' | 'solid', call: TronCall = (p, b) => this.http.call(p, b)) {
    const prefix = view === 'head' ? '/wallet' : '/walletsolidity';
    if (this.hasGetBlock) {
      try {
        return header(await call(`${prefix}/getblock`, { detail: false }));
      } catch (error) {
        if (!(error instanceof TronNodeError && error.status === 404)) throw error;
        this.hasGetBlock = false;
        this.logger.info(
          'this node has no /wallet/getblock; reading blocks with getnowblock and getblockbynum',
        );
      }
    }
    return header(await call(`${prefix}/getnowblock`));
  }

  /** A block's ref straight from the node (no bookkeeping). */
  private async fetchBlock(height: number): Promise<BlockRef | null> {
    if (!Number.isSafeInteger(height) || height < 0) return null;
    let json: NodeJson;
    if (this.hasGetBlock) {
      try {
        json = await this.http.call('/wallet/getblock', { id_or_num: String(height), detail: false });
      } catch (error) {
        if (!(error instanceof TronNodeError && error.status === 404)) throw error;
        this.hasGetBlock = false;
        return this.fetchBlock(height);
      }
    } else {
      json = await this.http.call('/wallet/getblockbynum', { num: height });
    }
    if (isEmpty(json)) return null;
    const ref = blockRef(json);
    if (ref.number !== height) throw new Error(`asked for block ${height}, the node answered ${ref.number}`);
    return ref;
  }

  block(height: number): Promise<BlockRef | null> {
    return this.fetchBlock(height);
  }

  scanStep(): number {
    return Math.max(1, Math.min(SCAN_STEP, this.settings.maxLogRange));
  }

  private hex20(address: string): string | undefined {
    let hex = this.hexCache.get(address);
    if (hex === undefined) {
      try {
        hex = toHex20(address);
      } catch {
        this.logger.warn({ address }, 'watched address is not a TRON address; ignored');
        return undefined;
      }
      this.hexCache.set(address, hex);
    }
    return hex;
  }

  private watchOf(addresses: ReadonlySet<string>, tokens: TokenSpec[]): Watch {
    const watched = new Map<string, string>();
    for (const a of addresses) {
      const hex = this.hex20(a);
      if (hex !== undefined) watched.set(hex, a);
    }
    const contracts = new Map<string, string>();
    for (const t of tokens) {
      if (t.contract === null) continue;
      const hex = this.hex20(t.contract);
      if (hex !== undefined) contracts.set(hex, t.contract);
    }
    return { addresses: watched, tokens: contracts, native: tokens.some((t) => t.contract === null) };
  }

  /** Blocks [first, last] in order, checked to be consecutive; throws when any is missing. */
  private async blockRange(first: number, last: number): Promise<NodeJson[]> {
    const json = await this.http.call('/wallet/getblockbylimitnext', { startNum: first, endNum: last + 1 });
    const blocks: NodeJson[] = Array.isArray(json?.block) ? json.block : [];
    if (blocks.length !== last - first + 1 || blocks.some((b, i) => header(b).number !== first + i)) {
      throw new Error(
        `blocks ${first}..${last} are not all there (the chain got shorter: a fork?); read again later`,
      );
    }
    return blocks;
  }

  async scan(
    from: number,
    to: number,
    addresses: ReadonlySet<string>,
    tokens: TokenSpec[],
  ): Promise<ObservedTransfer[]> {
    if (from > to) return [];
    const watch = this.watchOf(addresses, tokens);
    if (watch.addresses.size === 0 || (watch.tokens.size === 0 && !watch.native)) return [];
    const chunks: [number, number][] = [];
    for (let a = from; a <= to; a += BLOCKS_PER_REQUEST)
      chunks.push([a, Math.min(to, a + BLOCKS_PER_REQUEST - 1)]);
    const blocks = (
      await mapLimit(chunks, BLOCK_REQUESTS_IN_FLIGHT, ([a, b]) => this.blockRange(a, b))
    ).flat();
    for (let i = 1; i < blocks.length; i++) {
      if (header(blocks[i]).parentId !== header(blocks[i - 1]).id) {
        throw new Error(`blocks ${from}..${to} do not link up (a fork while reading); read again later`);
      }
    }
    // the engine checks the end block before and after the scan, and that its checkpoint is still there
    const out: ObservedTransfer[] = [];
    for (const block of blocks) out.push(...nativeTransfers(block, watch));
    if (watch.tokens.size > 0) {
      const withCalls = blocks.filter(needsInfos);
      const found = await mapLimit(withCalls, INFO_REQUESTS_IN_FLIGHT, async (block) => {
        const infos = await this.http.call('/wallet/gettransactioninfobyblocknum', {
          num: header(block).number,
        });
        assertInfosMatch(block, infos);
        return tokenTransfers(block, infos, watch);
      });
      out.push(...found.flat());
    }
    return out;
  }

  async balance(address: string, token: TokenSpec): Promise<bigint> {
    if (token.contract === null) return (await this.resources(address)).balance;
    const { output } = await this.constantCall(
      toHex41(address),
      toHex41(token.contract),
      'balanceOf(address)',
      addressWord(address),
    );
    if (!/^[0-9a-fA-F]{1,64}$/.test(output)) throw new Error(`balanceOf answered ${output || 'nothing'}`);
    return BigInt(`0x${output}`);
  }

  private async chainParams(): Promise<ChainParams> {
    if (this.params && Date.now() - this.params.at < PARAMS_TTL_MS) return this.params.value;
    const value = readChainParams(await this.http.call('/wallet/getchainparameters'));
    this.params = { value, at: Date.now() };
    return value;
  }

  private async resources(address: string): Promise<Resources> {
    const hex = toHex41(address);
    const [account, resource] = await Promise.all([
      this.http.call('/wallet/getaccount', { address: hex }),
      this.http.call('/wallet/getaccountresource', { address: hex }),
    ]);
    return readResources(account, resource);
  }

  /** A read-only contract call; throws TransferReverts when it reverts. */
  private async constantCall(
    owner: string,
    contract: string,
    selector: string,
    parameter: string,
  ): Promise<{ energy: bigint; output: string }> {
    const json = await this.http.call('/wallet/triggerconstantcontract', {
      owner_address: owner,
      contract_address: contract,
      function_selector: selector,
      parameter,
    });
    if (json?.result?.result !== true) {
      throw new TronNodeError(
        `${selector}: ${json?.result?.code ?? 'refused'} ${fromHexText(json?.result?.message)}`.trim(),
        200,
      );
    }
    if (json.result.message !== undefined || json.transaction?.ret?.[0]?.ret === 'FAILED') {
      throw new TransferReverts(fromHexText(json.result.message) || 'reverted');
    }
    return { energy: BigInt(num(json.energy_used)), output: String(json.constant_result?.[0] ?? '') };
  }

  /** Energy a `transfer(to, amount)` from `owner` needs now: estimateenergy, else the constant call's energy_used. */
  private async transferEnergy(owner: string, contract: string, to: string, amount: bigint): Promise<bigint> {
    const parameter = addressWord(to) + uint256(amount);
    try {
      const json = await this.http.call('/wallet/estimateenergy', {
        owner_address: owner,
        contract_address: contract,
        function_selector: 'transfer(address,uint256)',
        parameter,
      });
      if (json?.result?.result === true) return BigInt(num(json.energy_required));
      if (json?.result?.code === 'CONTRACT_EXE_ERROR')
        throw new TransferReverts(fromHexText(json.result.message));
    } catch (error) {
      if (!(error instanceof TronNodeError)) throw error;
      // estimateenergy is off on this node (vm.estimateEnergy=false): fall back to the constant call
    }
    return (await this.constantCall(owner, contract, 'transfer(address,uint256)', parameter)).energy;
  }

  async payoutFeeEstimate(from: string, to: string, token: TokenSpec, amountBase: bigint): Promise<bigint> {
    const params = await this.chainParams();
    const wallet = await this.resources(from);
    // `to === from` means the recipient is not known yet: price the worst case (a new account / holder)
    const knownTo = to !== from ? to : null;
    if (token.contract === null) {
      const exists = knownTo !== null && (await this.resources(knownTo)).exists;
      return trxTransferBurn(exists, wallet, params, false);
    }
    let energy: bigint;
    try {
      energy = await this.transferEnergy(
        toHex41(from),
        toHex41(token.contract),
        knownTo ?? PROBE_ADDRESS,
        amountBase,
      );
    } catch (error) {
      if (!(error instanceof TransferReverts)) throw error;
      energy = FALLBACK_TRANSFER_ENERGY; // e.g. the wallet lacks the tokens: the balance check reports that
    }
    return tokenTransferBurn(energy, wallet, params, false);
  }

  async signPayout(input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  }): Promise<SignedPayout> {
    if (addressOfKey(input.privateKey) !== input.from)
      throw new Error('The signing key does not match the hot wallet');
    let to: string;
    try {
      to = toHex41(input.to);
    } catch {
      throw new PayoutRejectedError(`${input.to} is not a TRON address.`);
    }
    if (input.amountBase <= 0n) throw new PayoutRejectedError('The amount must be positive.');
    const owner = toHex41(input.from);
    let call: PayoutContract;
    let feeLimit = 0n;
    if (input.token.contract === null) {
      if (input.amountBase > BigInt(Number.MAX_SAFE_INTEGER))
        throw new PayoutRejectedError('The TRX amount is too large for one transfer.');
      // java-tron refuses an unfunded TRX transfer at broadcast (nothing is burnt); it is retried until it expires
      call = { type: 'TransferContract', owner, to, amountSun: input.amountBase };
    } else {
      const contract = toHex41(input.token.contract);
      const params = await this.chainParams();
      let energy: bigint;
      try {
        energy = await this.transferEnergy(owner, contract, to, input.amountBase);
      } catch (error) {
        if (error instanceof TransferReverts)
          throw new PayoutRejectedError(`The transfer would revert: ${error.message}`);
        throw error;
      }
      if (energy * params.energyPrice > this.feeLimitCap) {
        throw new Error(
          `${this.chain}: the transfer needs ${energy} energy (${formatTrx(energy * params.energyPrice)} TRX), above the fee_limit cap of ${formatTrx(this.feeLimitCap)} TRX; not sent`,
        );
      }
      feeLimit = feeLimitFor(energy, params, this.feeLimitCap);
      const wallet = await this.resources(input.from);
      const need = tokenTransferBurn(energy, wallet, params, true);
      if (wallet.balance < need) {
        // it would be included, run out of energy and burn the TRX it has: wait for a top-up instead
        throw new Error(
          `${this.chain}: hot wallet ${input.from} holds ${formatTrx(wallet.balance)} TRX; this transfer burns about ${formatTrx(need)} TRX for energy and bandwidth; not sent until it is topped up`,
        );
      }
      call = {
        type: 'TriggerSmartContract',
        owner,
        contract,
        data: TRANSFER_SELECTOR + addressWord(to) + uint256(input.amountBase),
      };
    }
    const [headBlock, solidBlock] = await Promise.all([this.latest('head'), this.latest('solid')]);
    const tx = buildTransaction(
      call,
      {
        // the solidified block as reference: it is on every branch the transaction could land on
        refBlockId: solidBlock.id,
        expiration: headBlock.timestampMs + this.expirationMs,
        timestamp: Date.now(),
      },
      feeLimit,
    );
    const signed = signTransaction(tx, input.privateKey);
    const validUntil = expirationOf(signed);
    return {
      txHash: signed.txID,
      raw: JSON.stringify(signed),
      nonce: null,
      validUntil,
      slot: `ref block ${signed.raw_data.ref_block_bytes}/${signed.raw_data.ref_block_hash}, expires ${new Date(validUntil).toISOString()}`,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
    };
  }

  async broadcast(signed: { raw: string; txHash: string }): Promise<BroadcastResult> {
    let tx: TronTx;
    try {
      tx = JSON.parse(signed.raw) as TronTx;
    } catch {
      return { ok: false, permanent: true, error: 'The stored transaction is not JSON.' };
    }
    let answer: NodeJson;
    try {
      answer = await this.http.pinned(async (call) => {
        const a = await call('/wallet/broadcasttransaction', tx as unknown as Record<string, unknown>);
        if (TRANSIENT_BROADCAST_CODES.has(a?.code)) throw new TransientRpcError(`broadcast: ${a.code}`);
        return a;
      });
    } catch (error) {
      if (error instanceof TronNodeError) return { ok: false, permanent: false, error: error.message };
      throw error;
    }
    if (answer?.result === true || answer?.code === 'DUP_TRANSACTION_ERROR') return { ok: true };
    const code = String(answer?.code ?? 'OTHER_ERROR');
    const error = `${code}: ${fromHexText(answer?.message)}`;
    return { ok: false, permanent: PERMANENT_BROADCAST_CODES.has(code), error };
  }

  async lookup(txHash: string): Promise<PayoutLookup> {
    const info = await this.http.call('/wallet/gettransactioninfobyid', { value: txHash });
    if (isEmpty(info)) return { state: 'unknown' };
    const [block, tx] = await Promise.all([
      this.fetchBlock(num(info.blockNumber)),
      this.http.call('/wallet/gettransactionbyid', { value: txHash }),
    ]);
    if (!block || isEmpty(tx)) return { state: 'pending' }; // moved by a fork between the requests: look again
    const failure = this.failureOf(info, tx);
    return {
      state: 'mined',
      blockNum: block.number,
      blockHash: block.hash,
      timestamp: block.timestamp,
      success: failure === null,
      ...(failure === null ? {} : { error: failure }),
    };
  }

  /**
   * Why a mined transaction did not do what it was built for, or null when it did: the receipt must
   * say SUCCESS and, for a TRC-20 `transfer`, the token must have logged that exact Transfer (the
   * return value is ignored: mainnet USDT returns false on success).
   */
  private failureOf(info: NodeJson, tx: NodeJson): string | null {
    if (infoFailed(info) || (tx?.ret?.[0]?.contractRet ?? 'SUCCESS') !== 'SUCCESS') {
      const reason = info?.receipt?.result ?? tx?.ret?.[0]?.contractRet ?? 'FAILED';
      const message = fromHexText(info?.resMessage);
      return message ? `${reason} (${message})` : String(reason);
    }
    const contract = tx?.raw_data?.contract?.[0];
    const value = contract?.parameter?.value ?? {};
    const data = String(value.data ?? '').toLowerCase();
    if (contract?.type !== 'TriggerSmartContract' || !data.startsWith(TRANSFER_SELECTOR)) return null;
    const token = String(value.contract_address ?? '')
      .slice(-40)
      .toLowerCase();
    const from = String(value.owner_address ?? '')
      .slice(-40)
      .toLowerCase();
    const to = wordToHex20(data.slice(8, 72));
    const amount = BigInt(`0x${data.slice(72, 136) || '0'}`);
    const logs: NodeJson[] = Array.isArray(info?.log) ? info.log : [];
    const logged = logs.some((log) => {
      const t = decodeTransferLog(log);
      return t && t.token === token && t.from === from && t.to === to && t.amount === amount;
    });
    return logged ? null : 'the token logged no matching Transfer';
  }

  /**
   * A TRON payout's slot is its reference block and expiration: the same signed bytes until then,
   * and a new transaction only once it can never land. On one pinned endpoint (then again on a
   * second): the transaction known in any view means it landed or still may; a node whose
   * SOLIDIFIED block is past the expiration plus a margin and that does not know it proves it never
   * will. Anything short of that is `open`: time, not the operator, settles a TRON slot.
   */
  async judgeSlot(input: {
    from: string;
    attempts: RecordedSpend[];
    recorded: RecordedSpend[];
  }): Promise<SlotVerdict> {
    const expiries = input.attempts.map((a) => a.validUntil);
    if (expiries.length === 0 || expiries.some((v) => v === null))
      return { state: 'open', detail: 'a transaction without an expiration' };
    const latest = Math.max(...(expiries as number[]));
    const views = await this.http.corroborate(async (call): Promise<SlotVerdict> => {
      for (const a of input.attempts) {
        for (const path of [
          '/walletsolidity/gettransactioninfobyid',
          '/wallet/gettransactioninfobyid',
          '/wallet/gettransactionbyid',
        ]) {
          if (!isEmpty(await call(path, { value: a.txHash }))) return { state: 'landed', txHash: a.txHash };
        }
      }
      const solid = await this.latest('solid', call);
      if (solid.timestampMs < latest + NEVER_LAND_MARGIN_MS)
        return {
          state: 'open',
          detail: `expires ${new Date(latest).toISOString()}; the solidified block is older`,
        };
      // asked again after the time check: the node's view may have moved between the requests
      for (const a of input.attempts) {
        if (!isEmpty(await call('/walletsolidity/gettransactioninfobyid', { value: a.txHash })))
          return { state: 'landed', txHash: a.txHash };
      }
      return {
        state: 'dead',
        proof: `expired at ${new Date(latest).toISOString()}; the solidified block ${solid.number} (${new Date(solid.timestampMs).toISOString()}) does not contain it`,
      };
    }, needsSecondOpinion);
    return corroboratedVerdict(views);
  }
}
