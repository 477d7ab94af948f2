import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { formatAmount } from '../../../domain/money.ts';
import { ChainError } from '../../errors.ts';
import type { SignedSweep, TokenSpec } from '../../port.ts';
import type { SuiContext } from '../context.ts';
import { normalizeCoinType, SUI_COIN_TYPE } from '../deposits.ts';
import { describeFailure } from '../execution.ts';
import { busyObjects, objectKey, rememberTransaction } from '../known-transactions.ts';
import { type CoinRef, encodeRaw, ownedInputs, selectCoins, transactionDigest } from '../payout-tx.ts';
import { buildSweepTransaction } from '../sweep-tx.ts';
import { coins } from './coins.ts';
import { dryRun } from './dry-run.ts';
import { payoutFeeCeiling, referenceGasPrice } from './fee-estimate.ts';

/** The largest coins first, at most `max` of them. */
const largest = (list: CoinRef[], max: number) =>
  [...list].sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1)).slice(0, max);

/**
 * Builds, dry-runs and signs a sponsored sweep: the deposit address sends all its coins of the type
 * (the largest 200) to `to`; the hot wallet (`sponsor`) pays the gas with SUI coins no transaction of
 * ours in flight holds, and signs too. The budget is the dry run's cost plus the margin payouts use.
 * Throws ChainError `payout_rejected` (no coins, or the dry run fails), `wallet_underfunded` (the hot
 * wallet lacks SUI for the gas), `wallet_busy` (its SUI is held by a transaction in flight),
 * `wrong_key`, `bad_request` without a sponsor.
 */
export async function signSweep(
  ctx: SuiContext,
  input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    sponsor?: { address: string; privateKey: Buffer };
  },
): Promise<SignedSweep> {
  if (!input.sponsor)
    throw new ChainError('bad_request', 'Sui sweeps are sponsored: the hot wallet must sign as gas owner');
  const depositKey = Ed25519Keypair.fromSecretKey(new Uint8Array(input.privateKey));
  const sponsorKey = Ed25519Keypair.fromSecretKey(new Uint8Array(input.sponsor.privateKey));
  const sender = normalizeSuiAddress(depositKey.toSuiAddress());
  const gasOwner = normalizeSuiAddress(sponsorKey.toSuiAddress());
  if (sender !== normalizeSuiAddress(input.from))
    throw new ChainError('wrong_key', 'The signing key does not match the deposit address');
  if (gasOwner !== normalizeSuiAddress(input.sponsor.address))
    throw new ChainError('wrong_key', 'The signing key does not match the hot wallet');
  const coinType = input.token.contract === null ? SUI_COIN_TYPE : normalizeCoinType(input.token.contract);
  if (coinType === null)
    throw new ChainError('payout_rejected', `${input.token.contract} is not a Sui coin type.`);

  const busy = busyObjects(ctx);
  const swept = largest(
    (await coins(ctx, { owner: sender, coinType })).filter((c) => !busy.has(objectKey(c))),
    200,
  );
  const amount = swept.reduce((s, c) => s + c.balance, 0n);
  if (amount === 0n)
    throw new ChainError('payout_rejected', `${sender} holds no ${input.token.symbol} in coins`);

  const price = await referenceGasPrice(ctx);
  const ceiling = payoutFeeCeiling(price);
  const allGas = await coins(ctx, { owner: gasOwner, coinType: SUI_COIN_TYPE });
  const freeGas = allGas.filter((c) => !busy.has(objectKey(c)));
  const gas = selectCoins(freeGas, ceiling);
  if (!gas.enough) {
    const heldAll = allGas.reduce((s, c) => s + c.balance, 0n);
    if (selectCoins(allGas, ceiling).enough)
      throw new ChainError(
        'wallet_busy',
        `${ctx.chain}: the hot wallet's SUI coins are held by a transaction in flight`,
      );
    throw new ChainError(
      'wallet_underfunded',
      `${ctx.chain}: the hot wallet ${gasOwner} holds ${formatAmount(heldAll, 9)} SUI; a sweep's gas needs up to ${formatAmount(ceiling, 9)}`,
    );
  }
  const base = {
    sender,
    gasOwner,
    to: normalizeSuiAddress(input.to),
    coins: swept,
    gasCoins: gas.coins,
    gasPrice: price,
  };
  const effects = await dryRun(ctx, {
    bytes: await buildSweepTransaction({
      ...base,
      gasBudget: gas.total < ceiling * 10n ? gas.total : ceiling * 10n,
    }),
  });
  if (effects?.status?.success !== true)
    throw new ChainError(
      'payout_rejected',
      `The sweep would fail on chain: ${describeFailure(effects?.status)}.`,
    );
  const cost = (effects.gasUsed?.computationCost ?? 0n) + (effects.gasUsed?.storageCost ?? 0n);
  let budget = ctx.gasBudget(cost, price);
  if (budget > gas.total) budget = gas.total;
  const bytes = await buildSweepTransaction({ ...base, gasBudget: budget });
  const { signature } = await depositKey.signTransaction(bytes);
  const { signature: sponsorSignature } = await sponsorKey.signTransaction(bytes);
  const digest = transactionDigest(bytes);
  const signed = { bytes, signature, sponsorSignature };
  rememberTransaction(ctx, digest, signed, false);
  return {
    txHash: digest,
    raw: encodeRaw(signed),
    nonce: null,
    validUntil: null,
    slot: ownedInputs(bytes)
      .map((r) => `${r.objectId}@${r.version}`)
      .join(', '),
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
    amountBase: amount,
  };
}
