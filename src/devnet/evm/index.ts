/**
 * Local EVM devnets for tests, benchmarks and `kassa sandbox`, on anvil from `@foundry-rs/anvil`.
 *
 * - `startAnvil({ chainId, port?, blockTime?, slotsInAnEpoch?, noMining?, mnemonic?, stateFile? })`: one
 *   anvil binary on 127.0.0.1 (a free port unless given), ready when it answers; `stop()` waits for exit;
 *   instances die with the Node process.
 * - `startEvmDevnet({ chains, chainIds?, fund?, stateDir?, blockTime?, noMining? })`: one anvil per chain
 *   (ETH 1, BSC 56, POLYGON 137, AVAX_C_CHAIN 43114), USDT and USDC deployed with each chain's real
 *   decimals (BSC 18, others 6; USDT on ETH returns nothing from transfer), accounts funded.
 * - Tokens (`deployTestToken`, `mint`, `transferToken`, `setBlocked`, `tokenBalance`): the compiled
 *   artifacts of src/devnet/evm/contracts; `setBlocked` makes transfers to or from an address revert.
 * - `reorg(client, depth)` (`anvil_reorg`) and `rollback(client, depth)` (`anvil_rollback`).
 */
export {
  type AnvilInstance,
  AnvilStartError,
  anvilArgs,
  resolveAnvilBinary,
  type StartAnvilOptions,
  startAnvil,
} from './anvil.ts';
export {
  noReturnTokenAbi,
  noReturnTokenArtifact,
  type TokenArtifact,
  testTokenAbi,
  testTokenArtifact,
} from './artifacts.ts';
export { createDevnetClient, type DevnetClient, type DevnetClientOptions } from './client.ts';
export {
  type DevnetToken,
  type DevnetTokenSymbol,
  EVM_DEVNET_CHAINS,
  type EvmDevnet,
  type EvmDevnetChain,
  type EvmDevnetChainInstance,
  type StartEvmDevnetOptions,
  startEvmDevnet,
} from './devnet.ts';
export { isProcessRunning } from './is-process-running.ts';
export { type ReorgResult, type ReorgTransaction, reorg, rollback } from './reorg.ts';
export {
  type AnyClient,
  type DeployTestTokenOptions,
  DevnetTransactionRevertedError,
  deployTestToken,
  mint,
  readTokenInfo,
  type Signer,
  setBlocked,
  type TokenKind,
  tokenAbi,
  tokenBalance,
  transferToken,
} from './tokens.ts';
