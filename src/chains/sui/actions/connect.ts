import { ChainError } from '../../errors.ts';
import type { SuiContext } from '../context.ts';
import { normalizeCoinType, SUI_COIN_TYPE } from '../deposits.ts';
import { isNotFound } from '../grpc.ts';

/**
 * Checks that every RPC URL that answers serves the same chain id (check-endpoint.ts; the others
 * before their first use), then that every configured coin type exists there with the
 * configured decimals: a coin type the node does not know means it serves another network
 * (mainnet USDC on a testnet node), so the chain is disabled (ChainError `wrong_network`).
 */
export async function connect(ctx: SuiContext): Promise<void> {
  await ctx.rpc.endpoints.checkAll();
  const info = await ctx.rpc.call((c, o) => c.ledgerService.getServiceInfo({}, o).response);
  for (const token of ctx.settings.tokens) {
    const coinType = token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(token.contract);
    if (coinType === null) {
      throw new ChainError(
        'wrong_network',
        `${ctx.chain}: ${token.symbol} is configured with "${token.contract}", which is not a Sui coin type`,
      );
    }
    let decimals: number | undefined;
    try {
      const found = await ctx.rpc.call((c, o) => c.stateService.getCoinInfo({ coinType }, o).response);
      decimals = found.metadata?.decimals;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      throw new ChainError(
        'wrong_network',
        `${ctx.chain}: the RPC (chain id ${info.chainId}) does not know the coin type ${coinType} configured for ${token.symbol}; it serves another network, so the chain is disabled`,
      );
    }
    if (decimals !== undefined && decimals !== token.decimals) {
      throw new ChainError(
        'wrong_network',
        `${ctx.chain}: ${token.symbol} (${coinType}) has ${decimals} decimals on the RPC (chain id ${info.chainId}), but ${token.decimals} are configured; the chain is disabled`,
      );
    }
  }
  ctx.logger.info(
    { chain: ctx.chain, chainId: info.chainId, network: info.chain, height: String(info.checkpointHeight) },
    'sui rpc checked',
  );
}
