import type { Account, Address, Chain, Client, Hash, TransactionReceipt, Transport } from 'viem';
import {
  deployContract,
  getAddresses,
  getTransactionReceipt,
  readContract,
  waitForTransactionReceipt,
  writeContract,
} from 'viem/actions';
import { noReturnTokenAbi, noReturnTokenArtifact, testTokenAbi, testTokenArtifact } from './artifacts.ts';

/** `standard`: transfer returns bool (USDC, most tokens). `no-return`: returns nothing (USDT on Ethereum). */
export type TokenKind = 'standard' | 'no-return';

/** Any viem client pointed at an anvil node; a default account is optional. */
export type AnyClient = Client<Transport, Chain | undefined, Account | undefined>;

/** Who signs: a local account (signed here) or the address of an anvil dev account (signed by anvil). */
export type Signer = Account | Address;

export interface DeployTestTokenOptions {
  name: string;
  symbol: string;
  /** 6 like USDC/USDT on most chains, 18 like the Binance-Peg tokens on BSC. */
  decimals: number;
  kind: TokenKind;
  /** Deployer, who becomes the token's owner (mints, blocks). Default: client account, else dev account 0. */
  from?: Signer;
}

/** Thrown when a devnet transaction is mined but reverted (and the caller did not allow it). */
export class DevnetTransactionRevertedError extends Error {
  override readonly name = 'DevnetTransactionRevertedError';
  readonly code = 'DEVNET_TX_REVERTED';
  constructor(
    readonly what: string,
    readonly receipt: TransactionReceipt,
  ) {
    super(`${what} reverted in transaction ${receipt.transactionHash}`);
  }
}

/** The ABI to call a token of this kind with; the two differ only in what transfer/approve return. */
export function tokenAbi(kind: TokenKind) {
  return kind === 'standard' ? testTokenAbi : noReturnTokenAbi;
}

/**
 * Deploys a `TestToken` (kind `standard`) or a `NoReturnToken` (kind `no-return`) from the committed
 * artifacts and waits for it to be mined. Resolves to the contract address. Throws if the deployment
 * reverts or `decimals` is not an integer 0–255.
 */
export async function deployTestToken(client: AnyClient, options: DeployTestTokenOptions): Promise<Address> {
  const { name, symbol, decimals, kind } = options;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new RangeError(`decimals must be an integer 0–255, got ${decimals}`);
  }
  const artifact = kind === 'standard' ? testTokenArtifact : noReturnTokenArtifact;
  const hash = await deployContract(client, {
    abi: testTokenAbi,
    bytecode: artifact.bytecode,
    args: [name, symbol, decimals],
    account: options.from ?? (await defaultSigner(client)),
    chain: client.chain,
  });
  const receipt = await mined(client, hash, `deploying ${symbol}`);
  if (!receipt.contractAddress) throw new DevnetTransactionRevertedError(`deploying ${symbol}`, receipt);
  return receipt.contractAddress;
}

/**
 * Mints `amount` base units of `token` to `to` (a Transfer from the zero address). Sent by `from`, by
 * default the token's owner as an anvil dev account. Throws if the mint reverts (not the owner, `to`
 * blocked).
 */
export async function mint(
  client: AnyClient,
  options: { token: Address; to: Address; amount: bigint; from?: Signer },
): Promise<TransactionReceipt> {
  const hash = await writeContract(client, {
    address: options.token,
    abi: testTokenAbi,
    functionName: 'mint',
    args: [options.to, options.amount],
    account: options.from ?? (await tokenOwner(client, options.token)),
    chain: client.chain,
  });
  return mined(client, hash, 'mint');
}

/**
 * Transfers `amount` base units of `token` from `from` to `to`; works for both kinds, as it never decodes a
 * return value. Resolves to the mined receipt. Without `gas`, a transfer that would revert is refused at
 * estimation (the error carries the reason, e.g. "recipient is blocked"). With `gas`, it is mined anyway;
 * a reverted receipt then throws {@link DevnetTransactionRevertedError} unless `allowRevert` is set.
 */
export async function transferToken(
  client: AnyClient,
  options: { from: Signer; token: Address; to: Address; amount: bigint; gas?: bigint; allowRevert?: boolean },
): Promise<TransactionReceipt> {
  const hash = await writeContract(client, {
    address: options.token,
    abi: noReturnTokenAbi,
    functionName: 'transfer',
    args: [options.to, options.amount],
    account: options.from,
    chain: client.chain,
    ...(options.gas === undefined ? {} : { gas: options.gas }),
  });
  return mined(client, hash, 'transfer', options.allowRevert);
}

/**
 * Blocks (or unblocks) `account` on `token`, like USDC's blacklist: while blocked, every transfer from or
 * to it reverts with "sender is blocked" / "recipient is blocked". Sent by the owner by default. Throws if
 * the call reverts.
 */
export async function setBlocked(
  client: AnyClient,
  options: { token: Address; account: Address; blocked: boolean; from?: Signer },
): Promise<TransactionReceipt> {
  const hash = await writeContract(client, {
    address: options.token,
    abi: testTokenAbi,
    functionName: 'setBlocked',
    args: [options.account, options.blocked],
    account: options.from ?? (await tokenOwner(client, options.token)),
    chain: client.chain,
  });
  return mined(client, hash, 'setBlocked');
}

/** Balance of `holder` in base units of `token`. */
export function tokenBalance(client: AnyClient, token: Address, holder: Address): Promise<bigint> {
  return readContract(client, {
    address: token,
    abi: testTokenAbi,
    functionName: 'balanceOf',
    args: [holder],
  });
}

/** Name, symbol and decimals as the contract reports them. Throws if `token` is not such a contract. */
export async function readTokenInfo(
  client: AnyClient,
  token: Address,
): Promise<{ name: string; symbol: string; decimals: number }> {
  const [name, symbol, decimals] = await Promise.all([
    readContract(client, { address: token, abi: testTokenAbi, functionName: 'name' }),
    readContract(client, { address: token, abi: testTokenAbi, functionName: 'symbol' }),
    readContract(client, { address: token, abi: testTokenAbi, functionName: 'decimals' }),
  ]);
  return { name, symbol, decimals };
}

function tokenOwner(client: AnyClient, token: Address): Promise<Address> {
  return readContract(client, { address: token, abi: testTokenAbi, functionName: 'owner' });
}

async function defaultSigner(client: AnyClient): Promise<Signer> {
  if (client.account) return client.account;
  const [first] = await getAddresses(client);
  if (!first) throw new Error('the node has no dev accounts; pass `from`');
  return first;
}

/** The receipt of `hash`: at once under automine (no polling delay), else when it is mined. */
async function mined(client: AnyClient, hash: Hash, what: string, allowRevert = false) {
  const receipt =
    (await getTransactionReceipt(client, { hash }).catch(() => undefined)) ??
    (await waitForTransactionReceipt(client, { hash }));
  if (receipt.status !== 'success' && !allowRevert) throw new DevnetTransactionRevertedError(what, receipt);
  return receipt;
}
