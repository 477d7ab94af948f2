import { type Block, GENESIS_PARENT, type IncludedTx, produceBlock } from './block.ts';
import { type HexAddress, keccakHex, toBase58, toHexAddress } from './encoding.ts';
import { badSignature, duplicate, expired, Refusal, taposFailed } from './errors.ts';
import { execute } from './execute.ts';
import { PARAMS } from './params.ts';
import { cloneState, emptyState, newAccount, type State } from './state.ts';
import { type ContractCall, type RawData, recoverSigner, seal, type Tx } from './transaction.ts';
import type { Token } from './trc20.ts';

/** Which state a read sees: the node's head (with its pool) or the latest solidified block. */
export type View = 'full' | 'solid';

/** A TRC-20 test token to deploy. `address` pins its address (e.g. mainnet USDT's) instead of deriving one. */
export interface DeployTrc20Options {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly owner?: string;
  readonly returnsFalse?: boolean;
  readonly address?: string;
}

/** An account present from block 0. `tokens` is keyed by token symbol or address; amounts in base units. */
export interface GenesisAccount {
  readonly address: string;
  readonly trx?: bigint;
  readonly tokens?: Readonly<Record<string, bigint>>;
  /** daily energy the account holds from staking or delegation */
  readonly stakedEnergy?: number;
  /** daily bandwidth the account holds from staking or delegation */
  readonly stakedBandwidth?: number;
  /** TRX (sun) frozen for energy under Stake 2.0: gives energy and can be lent (delegateresource) */
  readonly frozenEnergySun?: bigint;
}

/** Tokens and accounts that exist from block 0. */
export interface Genesis {
  readonly tokens?: readonly DeployTrc20Options[];
  readonly accounts?: readonly GenesisAccount[];
}

/** Settings of a chain. Times in ms. */
export interface ChainOptions {
  readonly slotMs: number;
  readonly solidLag: number;
  readonly genesisTime: number;
  readonly premine: number;
  readonly genesis?: Genesis;
}

/** Where a transaction sits on the chain. */
export interface Located {
  readonly included: IncludedTx;
  readonly block: Block;
  readonly position: number;
}

const DEFAULT_OWNER = '410000000000000000000000000000000000000000';

/**
 * The ledger of the fake TRON node: blocks, the transaction pool, the solidified head and the
 * state after every block that can still be forked away. Everything is synchronous and
 * deterministic apart from `Date.now()` in the `timestamp` of transactions the node builds.
 */
export class Chain {
  readonly #options: ChainOptions;
  readonly #blocks: Block[] = [];
  readonly #index = new Map<string, { block: number; position: number }>();
  #solid = 0;
  #pending: IncludedTx[] = [];
  #pendingIds = new Set<string>();
  #pendingState: State;
  #epoch = 0;
  #tokenNonce = 0;

  constructor(options: ChainOptions) {
    this.#options = options;
    const state = emptyState();
    for (const token of options.genesis?.tokens ?? []) this.#deployInto([state], token, options.genesisTime);
    for (const account of options.genesis?.accounts ?? []) this.#fund(state, account, options.genesisTime);
    this.#blocks.push(
      produceBlock({
        number: 0,
        parentId: GENESIS_PARENT,
        timestamp: options.genesisTime,
        txs: [],
        state,
        epoch: 0,
      }),
    );
    this.#pendingState = cloneState(state);
    this.mine(options.premine);
  }

  /** The head block. */
  get head(): Block {
    return this.#blocks[this.#blocks.length - 1]!;
  }

  /** The latest solidified (irreversible) block. */
  get solid(): Block {
    return this.#blocks[this.#solid]!;
  }

  /** Number of transactions waiting in the pool. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Block time of the next block: java-tron's "next slot time". */
  nextSlotTime(): number {
    return this.head.timestamp + this.#options.slotMs;
  }

  /** The latest block of a view. */
  latest(view: View): Block {
    return view === 'solid' ? this.solid : this.head;
  }

  /** Block `number` if the view can see it. */
  block(number: number, view: View): Block | undefined {
    if (!Number.isSafeInteger(number) || number < 0 || number > this.latest(view).number) return undefined;
    return this.#blocks[number];
  }

  /** Block with this 64-hex id if the view can see it. */
  blockById(id: string, view: View): Block | undefined {
    const number = Number.parseInt(id.slice(0, 16), 16);
    const block = this.block(number, view);
    return block?.id === id ? block : undefined;
  }

  /** A transaction included in a block the view can see. */
  transaction(txID: string, view: View): Located | undefined {
    const at = this.#index.get(txID);
    if (at === undefined || at.block > this.latest(view).number) return undefined;
    const block = this.#blocks[at.block]!;
    const included = block.txs[at.position];
    return included?.tx.txID === txID ? { included, block, position: at.position } : undefined;
  }

  /** State a read sees: the head with its pool applied, or the solidified block's. */
  state(view: View): State {
    return view === 'solid' ? this.solid.state! : this.#pendingState;
  }

  /** A transaction built by the node (createtransaction, triggersmartcontract): ref block = solid block. */
  build(
    contract: ContractCall,
    options: { feeLimit?: bigint; permissionId?: number; memo?: string } = {},
  ): Tx {
    const ref = this.solid;
    const raw: RawData = {
      contract,
      permissionId: options.permissionId ?? 0,
      refBlockBytes: ref.id.slice(12, 16),
      refBlockHash: ref.id.slice(16, 32),
      expiration: this.head.timestamp + PARAMS.builtExpirationMs,
      timestamp: Date.now(),
      feeLimit: options.feeLimit ?? 0n,
      memo: options.memo ?? '',
    };
    return seal(raw);
  }

  /**
   * Admits a signed transaction into the pool, checking it as java-tron's broadcast does: claimed
   * txID/raw_data_hex against raw_data, expiration, signature, TaPoS, size, duplicates, then
   * execution against the pool's state. Throws a Refusal otherwise; the pool is then unchanged.
   */
  admit(tx: Tx, claimed: { txID?: unknown; rawDataHex?: unknown } = {}): void {
    if (claimed.txID !== undefined && String(claimed.txID).replace(/^0x/, '').toLowerCase() !== tx.txID) {
      throw badSignature(`txID ${String(claimed.txID)} is not sha256(raw_data) ${tx.txID}`);
    }
    if (claimed.rawDataHex !== undefined && String(claimed.rawDataHex).toLowerCase() !== tx.rawDataHex) {
      throw badSignature('raw_data_hex does not encode raw_data');
    }
    if (tx.raw.expiration < this.nextSlotTime()) throw expired();
    this.#checkSignature(tx);
    this.#checkInclusion(tx, this.head, this.nextSlotTime());
    if (this.#pendingIds.has(tx.txID)) throw duplicate();
    const outcome = execute(this.#pendingState, tx, this.nextSlotTime());
    this.#pending.push({ tx, outcome });
    this.#pendingIds.add(tx.txID);
  }

  /** Produces `count` blocks; the first takes the whole pool (minus what no longer validates). */
  mine(count = 1): Block[] {
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`cannot mine ${count} blocks`);
    const produced: Block[] = [];
    for (let i = 0; i < count; i += 1) {
      const parent = this.head;
      const number = parent.number + 1;
      const timestamp = this.#options.genesisTime + number * this.#options.slotMs;
      const state = cloneState(parent.state!);
      const txs: IncludedTx[] = [];
      for (const { tx } of this.#pending) {
        try {
          this.#checkInclusion(tx, parent, timestamp);
          txs.push({ tx, outcome: execute(state, tx, timestamp) });
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
        }
      }
      const block = produceBlock({ number, parentId: parent.id, timestamp, txs, state, epoch: this.#epoch });
      this.#blocks.push(block);
      txs.forEach((included, position) => {
        this.#index.set(included.tx.txID, { block: number, position });
      });
      this.#pending = [];
      this.#pendingIds = new Set();
      this.#pendingState = cloneState(state);
      this.#advanceSolid();
      produced.push(block);
    }
    return produced;
  }

  /**
   * Drops the last `count` blocks, which must all be above the solid block. Their transactions
   * vanish (or go back to the pool with `reinclude`); the pool is re-validated against the new
   * head. Returns the ids of the transactions that were in the dropped blocks.
   */
  fork(count: number, options: { reinclude?: boolean } = {}): string[] {
    const forkable = this.head.number - this.#solid;
    if (!Number.isSafeInteger(count) || count < 0 || count > forkable) {
      throw new RangeError(`cannot fork ${count} blocks: ${forkable} are above the solid block`);
    }
    const dropped = this.#blocks.splice(this.#blocks.length - count, count);
    const droppedTxs = dropped.flatMap((block) => block.txs);
    for (const { tx } of droppedTxs) this.#index.delete(tx.txID);
    this.#epoch += 1;
    const candidates = [...(options.reinclude ? droppedTxs : []), ...this.#pending];
    this.#pending = [];
    this.#pendingIds = new Set();
    this.#pendingState = cloneState(this.head.state!);
    for (const { tx } of candidates) {
      try {
        this.admit(tx);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
    }
    return droppedTxs.map(({ tx }) => tx.txID);
  }

  /**
   * Sets an account's TRX balance (creating the account) as a fixture: the change applies to every
   * retained state, solidified included, as if it had always been so. No transaction records it.
   */
  setTrx(address: string, sun: bigint): void {
    if (sun < 0n) throw new RangeError('balance cannot be negative');
    const hex = toHexAddress(address);
    for (const state of this.#retainedStates()) {
      const account = state.accounts.get(hex) ?? newAccount(this.head.timestamp);
      account.balance = sun;
      state.accounts.set(hex, account);
    }
  }

  /** Deploys a native TRC-20 token into every retained state; returns its base58 address. */
  deployTrc20(options: DeployTrc20Options): string {
    return toBase58(this.#deployInto(this.#retainedStates(), options, this.head.timestamp));
  }

  /** Mints `amount` base units of `contract` to `to` in every retained state (a fixture: no log). */
  mintTrc20(contract: string, to: string, amount: bigint): void {
    if (amount <= 0n) throw new RangeError('amount must be positive');
    const tokenAddress = toHexAddress(contract);
    const holder = toHexAddress(to);
    for (const state of this.#retainedStates()) {
      const token = state.tokens.get(tokenAddress);
      if (token === undefined) throw new Error(`no TRC-20 token at ${contract}`);
      mint(token, holder, amount);
    }
  }

  /** Resolves a token by symbol or address in the head state. */
  findToken(symbolOrAddress: string): Token | undefined {
    return findToken(this.#pendingState, symbolOrAddress);
  }

  #retainedStates(): State[] {
    const states = this.#blocks.flatMap((block) => (block.state === undefined ? [] : [block.state]));
    return [...states, this.#pendingState];
  }

  #deployInto(states: readonly State[], options: DeployTrc20Options, at: number): HexAddress {
    if (typeof options.symbol !== 'string' || typeof options.name !== 'string') {
      throw new TypeError('a token needs a symbol and a name');
    }
    if (!Number.isInteger(options.decimals) || options.decimals < 0 || options.decimals > 77) {
      throw new RangeError('decimals must be an integer in 0..77');
    }
    const owner = options.owner === undefined ? DEFAULT_OWNER : toHexAddress(options.owner);
    let address: HexAddress;
    if (options.address !== undefined) {
      address = toHexAddress(options.address);
    } else {
      this.#tokenNonce += 1;
      address = `41${keccakHex(`kassa fake trc20 ${owner} ${this.#tokenNonce} ${options.symbol}`).slice(24)}`;
    }
    for (const state of states) {
      if (state.accounts.has(address) || state.tokens.has(address))
        throw new Error(`address ${address} is taken`);
    }
    for (const state of states) {
      state.tokens.set(address, {
        address,
        symbol: options.symbol,
        name: options.name,
        decimals: options.decimals,
        owner,
        returnsFalse: options.returnsFalse ?? false,
        createdAt: at,
        totalSupply: 0n,
        balances: new Map(),
        allowances: new Map(),
      });
      state.accounts.set(address, newAccount(at, { isContract: true }));
    }
    return address;
  }

  #fund(state: State, spec: GenesisAccount, at: number): void {
    const address = toHexAddress(spec.address);
    const account = state.accounts.get(address) ?? newAccount(at);
    account.balance = spec.trx ?? 0n;
    account.stakedEnergy = spec.stakedEnergy ?? 0;
    account.stakedNet = spec.stakedBandwidth ?? 0;
    account.frozenEnergySun = spec.frozenEnergySun ?? 0n;
    state.accounts.set(address, account);
    for (const [key, amount] of Object.entries(spec.tokens ?? {})) {
      const token = findToken(state, key);
      if (token === undefined) throw new Error(`genesis: no token ${key}`);
      mint(token, address, amount);
    }
  }

  #checkSignature(tx: Tx): void {
    const { signatures, raw } = tx;
    if (signatures.length === 0) throw badSignature('miss sig or contract');
    if (signatures.length > 1) {
      throw badSignature(`Signature count is ${signatures.length} more than key counts of permission : 1`);
    }
    if (raw.permissionId !== 0 && raw.permissionId !== 2) throw badSignature("permission isn't exit");
    const signature = signatures[0]!;
    const signer = recoverSigner(tx.txID, signature);
    if (signer !== raw.contract.owner) {
      throw badSignature(
        `${signature} is signed by ${toBase58(signer)} but it is not contained of permission.`,
      );
    }
  }

  /** TaPoS, size, expiration window and duplicates, against the chain ending at `parent`. */
  #checkInclusion(tx: Tx, parent: Block, blockTime: number): void {
    if (tx.raw.expiration < blockTime) throw expired();
    if (!this.#taposHolds(tx, parent)) throw taposFailed();
    const size = tx.rawDataHex.length / 2;
    if (size > PARAMS.maxTransactionBytes) {
      throw new Refusal('TOO_BIG_TRANSACTION_ERROR', `Too big transaction, the size is ${size} bytes`);
    }
    if (tx.raw.expiration > parent.timestamp + PARAMS.maxExpirationAheadMs) throw expired();
    if (this.#index.has(tx.txID)) throw duplicate();
  }

  /** ref_block_bytes names the latest block ≤ parent with those low 16 bits; its id must carry ref_block_hash. */
  #taposHolds(tx: Tx, parent: Block): boolean {
    const { refBlockBytes, refBlockHash } = tx.raw;
    if (refBlockBytes.length !== 4 || refBlockHash.length !== 16) return false;
    const low = Number.parseInt(refBlockBytes, 16);
    const number = parent.number - ((parent.number - low) & 0xffff);
    const block = number < 0 ? undefined : this.#blocks[number];
    return block !== undefined && block.id.slice(16, 32) === refBlockHash;
  }

  #advanceSolid(): void {
    const target = Math.max(this.#solid, this.head.number - this.#options.solidLag);
    for (let n = this.#solid; n < target; n += 1) this.#blocks[n]!.state = undefined;
    this.#solid = target;
  }
}

function mint(token: Token, holder: HexAddress, amount: bigint): void {
  token.balances.set(holder, (token.balances.get(holder) ?? 0n) + amount);
  token.totalSupply += amount;
}

function findToken(state: State, symbolOrAddress: string): Token | undefined {
  for (const token of state.tokens.values()) {
    if (token.symbol === symbolOrAddress) return token;
  }
  try {
    return state.tokens.get(toHexAddress(symbolOrAddress));
  } catch {
    return undefined;
  }
}
