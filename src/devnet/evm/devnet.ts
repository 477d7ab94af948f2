import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Address, getContractAddress } from 'viem';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { createDevnetClient, type DevnetClient } from './client.ts';
import { deployTestToken, mint, readTokenInfo, type TokenKind, tokenBalance } from './tokens.ts';

/** The EVM chains Kassa supports, by the names its config uses. */
export type EvmDevnetChain = 'ETH' | 'BSC' | 'POLYGON' | 'AVAX_C_CHAIN';
export type DevnetTokenSymbol = 'USDT' | 'USDC';

interface TokenSpec {
  name: string;
  decimals: number;
  kind: TokenKind;
}

/**
 * Mainnet chain ids and each chain's real token decimals (reference chains.md C.3): BSC's Binance-Peg
 * USDT/USDC have 18, the others 6; USDT on Ethereum returns nothing from transfer. Deploy order fixes
 * the addresses: USDT is the owner's nonce 0, USDC nonce 1.
 */
export const EVM_DEVNET_CHAINS: Record<
  EvmDevnetChain,
  { chainId: number; nativeSymbol: string; tokens: Record<DevnetTokenSymbol, TokenSpec> }
> = {
  ETH: {
    chainId: 1,
    nativeSymbol: 'ETH',
    tokens: {
      USDT: { name: 'Tether USD', decimals: 6, kind: 'no-return' },
      USDC: { name: 'USD Coin', decimals: 6, kind: 'standard' },
    },
  },
  BSC: {
    chainId: 56,
    nativeSymbol: 'BNB',
    tokens: {
      USDT: { name: 'Tether USD', decimals: 18, kind: 'standard' },
      USDC: { name: 'USD Coin', decimals: 18, kind: 'standard' },
    },
  },
  POLYGON: {
    chainId: 137,
    nativeSymbol: 'POL',
    tokens: {
      USDT: { name: 'Tether USD', decimals: 6, kind: 'standard' },
      USDC: { name: 'USD Coin', decimals: 6, kind: 'standard' },
    },
  },
  AVAX_C_CHAIN: {
    chainId: 43114,
    nativeSymbol: 'AVAX',
    tokens: {
      USDT: { name: 'Tether USD', decimals: 6, kind: 'standard' },
      USDC: { name: 'USD Coin', decimals: 6, kind: 'standard' },
    },
  },
};

const TOKEN_ORDER: readonly DevnetTokenSymbol[] = ['USDT', 'USDC'];
const ALL_CHAINS: readonly EvmDevnetChain[] = ['ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN'];

export interface StartEvmDevnetOptions {
  /** Which chains to start, one anvil each. Default: all four. */
  chains?: readonly EvmDevnetChain[];
  /** Chain ids to use instead of the mainnet ones (e.g. to run two devnets side by side). */
  chainIds?: Partial<Record<EvmDevnetChain, number>>;
  /**
   * Accounts to fund on every chain, topped up to at least `native` (wei; default 1 000 coins) and
   * `tokens` whole USDT and USDC each (scaled by each chain's decimals; default 1 000 000). Top-ups are
   * idempotent, so a restart on saved state does not inflate balances.
   */
  fund?: { accounts: readonly Address[]; native?: bigint; tokens?: bigint };
  /**
   * Directory (made if missing) for one state file per chain, `<dir>/anvil-<CHAIN>.json`, so the chains
   * survive a restart. Stop with `stop()` (SIGTERM) for the files to be written.
   */
  stateDir?: string;
  /** Also write the state files every N seconds, so a SIGKILL loses at most N seconds. Needs stateDir. */
  stateInterval?: number;
  /**
   * Seconds between blocks once set up (default: automine). Whole seconds are switched on after set-up
   * with `evm_setIntervalMining`; a fraction goes on anvil's command line, so set-up waits for blocks.
   */
  blockTime?: number;
  /** Mine nothing once set up (`evm_setAutomine false`): tests mine with `client.mine`. */
  noMining?: boolean;
  /** `--slots-in-an-epoch`: `finalized` = latest − 2N. */
  slotsInAnEpoch?: number;
  /** Dev accounts' mnemonic; account 0 deploys and owns the tokens. */
  mnemonic?: string;
}

export interface DevnetToken {
  address: Address;
  decimals: number;
  kind: TokenKind;
}

export interface EvmDevnetChainInstance {
  chain: EvmDevnetChain;
  url: string;
  chainId: number;
  nativeSymbol: string;
  tokens: Record<DevnetTokenSymbol, DevnetToken>;
  /** Deployer and owner of both tokens (anvil dev account 0): it can mint and block. */
  owner: Address;
  fundedAccounts: Address[];
  /** A viem client for this chain (public, wallet and anvil test actions). */
  client: DevnetClient;
  anvil: AnvilInstance;
  /** Stops this chain's anvil; resolves once it has exited. */
  stop(): Promise<void>;
}

export interface EvmDevnet {
  chains: EvmDevnetChainInstance[];
  /** The instance of `chain`; throws if that chain was not started. */
  get(chain: EvmDevnetChain): EvmDevnetChainInstance;
  /** Stops every anvil; resolves once all have exited. */
  stop(): Promise<void>;
}

const DEFAULT_NATIVE = 1_000n * 10n ** 18n;
const DEFAULT_TOKENS = 1_000_000n;

/**
 * Starts one anvil per chain (in parallel) with the chain's real id, deploys USDT and USDC with the
 * chain's real decimals (USDT on ETH is the no-return kind) and funds the given accounts. With `stateDir`
 * an existing state is reused: the tokens found at the owner's nonce-0/1 addresses are checked, not
 * redeployed. If any chain fails, every anvil started here is stopped and the error is rethrown.
 */
export async function startEvmDevnet(options: StartEvmDevnetOptions = {}): Promise<EvmDevnet> {
  const chains = options.chains ?? ALL_CHAINS;
  if (new Set(chains).size !== chains.length) throw new RangeError('a chain is listed twice');
  if (options.stateInterval !== undefined && options.stateDir === undefined) {
    throw new RangeError('stateInterval needs stateDir');
  }
  if (options.noMining && options.blockTime !== undefined)
    throw new RangeError('noMining or blockTime, not both');
  if (options.blockTime !== undefined && !(options.blockTime > 0))
    throw new RangeError('blockTime must be > 0');
  if (options.stateDir !== undefined) mkdirSync(options.stateDir, { recursive: true });
  const started: AnvilInstance[] = [];
  // allSettled, not all: a chain failing early must not leave a sibling that starts later running.
  const results = await Promise.allSettled(
    chains.map(async (chain) => {
      const anvil = await startAnvil({
        chainId: options.chainIds?.[chain] ?? EVM_DEVNET_CHAINS[chain].chainId,
        ...(options.stateDir === undefined
          ? {}
          : { stateFile: join(options.stateDir, `anvil-${chain}.json`) }),
        ...(options.stateInterval === undefined ? {} : { stateInterval: options.stateInterval }),
        // Set-up runs under automine (fast); the mining mode asked for is applied afterwards, except a
        // fractional block time, which only the command line accepts (set-up then waits for blocks).
        ...(fractional(options.blockTime) ? { blockTime: options.blockTime } : {}),
        ...(options.slotsInAnEpoch === undefined ? {} : { slotsInAnEpoch: options.slotsInAnEpoch }),
        ...(options.mnemonic === undefined ? {} : { mnemonic: options.mnemonic }),
      });
      started.push(anvil);
      return setUpChain(chain, anvil, options);
    }),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(started.map((anvil) => anvil.stop()));
    throw failure.reason;
  }
  const instances = results.map((result) => (result as PromiseFulfilledResult<EvmDevnetChainInstance>).value);
  return {
    chains: instances,
    get(chain) {
      const found = instances.find((instance) => instance.chain === chain);
      if (!found) throw new RangeError(`chain ${chain} is not part of this devnet`);
      return found;
    },
    async stop() {
      await Promise.all(instances.map((instance) => instance.stop()));
    },
  };
}

async function setUpChain(
  chain: EvmDevnetChain,
  anvil: AnvilInstance,
  options: StartEvmDevnetOptions,
): Promise<EvmDevnetChainInstance> {
  const spec = EVM_DEVNET_CHAINS[chain];
  const client = createDevnetClient({ url: anvil.url, chainId: anvil.chainId });
  const [owner] = await client.getAddresses();
  if (!owner) throw new Error(`${chain}: anvil has no dev accounts`);
  const tokens = await ensureTokens(chain, client, owner);
  const fundedAccounts = [...(options.fund?.accounts ?? [])];
  await fund(client, tokens, owner, fundedAccounts, options);
  if (options.noMining) await client.setAutomine(false);
  else if (options.blockTime !== undefined && !fractional(options.blockTime)) {
    await client.setIntervalMining({ interval: options.blockTime });
  }
  return {
    chain,
    url: anvil.url,
    chainId: anvil.chainId,
    nativeSymbol: spec.nativeSymbol,
    tokens,
    owner,
    fundedAccounts,
    client,
    anvil,
    stop: () => anvil.stop(),
  };
}

/** Deploys USDT then USDC on a fresh chain, or checks the ones a loaded state already holds. */
async function ensureTokens(
  chain: EvmDevnetChain,
  client: DevnetClient,
  owner: Address,
): Promise<Record<DevnetTokenSymbol, DevnetToken>> {
  const specs = EVM_DEVNET_CHAINS[chain].tokens;
  const nonce = await client.getTransactionCount({ address: owner });
  const tokens = {} as Record<DevnetTokenSymbol, DevnetToken>;
  for (const [index, symbol] of TOKEN_ORDER.entries()) {
    const spec = specs[symbol];
    const expected = getContractAddress({ from: owner, nonce: BigInt(index) });
    if (nonce === 0) {
      const address = await deployTestToken(client, { ...spec, symbol, from: owner });
      if (address.toLowerCase() !== expected.toLowerCase()) {
        throw new Error(`${chain}: ${symbol} deployed at ${address}, expected ${expected}`);
      }
    } else {
      const info = await readTokenInfo(client, expected).catch(() => undefined);
      if (info?.symbol !== symbol || info.decimals !== spec.decimals) {
        throw new Error(
          `${chain}: the loaded state has no ${symbol} with ${spec.decimals} decimals at ${expected}; ` +
            'delete the state file to start afresh',
        );
      }
    }
    tokens[symbol] = { address: expected, decimals: spec.decimals, kind: spec.kind };
  }
  return tokens;
}

async function fund(
  client: DevnetClient,
  tokens: Record<DevnetTokenSymbol, DevnetToken>,
  owner: Address,
  accounts: readonly Address[],
  options: StartEvmDevnetOptions,
): Promise<void> {
  const native = options.fund?.native ?? DEFAULT_NATIVE;
  const whole = options.fund?.tokens ?? DEFAULT_TOKENS;
  // Reads and balance settings in parallel; mints one after another, in a fixed order, since anvil gives
  // concurrent eth_sendTransaction calls from one account the same nonce ("replacement ... underpriced").
  const shortfalls = await Promise.all(
    accounts.map(async (account) => {
      const [coins, ...balances] = await Promise.all([
        client.getBalance({ address: account }),
        ...TOKEN_ORDER.map((symbol) => tokenBalance(client, tokens[symbol].address, account)),
      ]);
      if (coins < native) await client.setBalance({ address: account, value: native });
      return TOKEN_ORDER.map((symbol, i) => {
        const target = whole * 10n ** BigInt(tokens[symbol].decimals);
        return { token: tokens[symbol].address, to: account, amount: target - balances[i]! };
      });
    }),
  );
  for (const order of shortfalls.flat()) {
    if (order.amount > 0n) await mint(client, { ...order, from: owner });
  }
}

function fractional(blockTime: number | undefined): boolean {
  return blockTime !== undefined && !Number.isInteger(blockTime);
}
