import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { formatAmount } from '../../../domain/money.ts';
import { ChainError } from '../../errors.ts';
import type { SignedPayout, TokenSpec } from '../../port.ts';
import type { SuiContext } from '../context.ts';
import { normalizeCoinType, SUI_COIN_TYPE } from '../deposits.ts';
import { describeFailure, EXECUTION_ERROR_KIND } from '../execution.ts';
import { busyObjects, objectKey, rememberTransaction } from '../known-transactions.ts';
import {
  buildPayoutTransaction,
  type CoinRef,
  encodeRaw,
  MAX_COINS_PER_TRANSACTION,
  ownedInputs,
  selectCoins,
  transactionDigest,
} from '../payout-tx.ts';
import { coins } from './coins.ts';
import { dryRun } from './dry-run.ts';
import { payoutFeeCeiling, referenceGasPrice } from './fee-estimate.ts';

/** Computation units the node requires a budget to cover at least (budget ≥ price × units). */
const MIN_BUDGET_UNITS = 1_000n;
/** The dry run runs with at most this many times the fee estimate as budget. */
const DRY_RUN_BUDGET_FACTOR = 10n;

const held = (list: CoinRef[]) => list.reduce((s, c) => s + c.balance, 0n);
const coinsBusy = (ctx: SuiContext, what: string) =>
  new ChainError(
    'wallet_busy',
    `${ctx.chain}: the hot wallet's ${what} coins are held by a payout in flight`,
  );

/**
 * Builds, dry-runs and signs a payout. Token coins are picked largest first (merged when several)
 * and never pay gas; gas comes from the hot wallet's SUI coins (a SUI payout is split from them).
 * Coins used by a sent transaction of ours that may still execute are left alone, so no object
 * version is ever in two transactions on the network. The budget is the dry run's cost plus a
 * margin (ctx.gasBudget). Throws ChainError `payout_rejected` when the payout cannot be paid as
 * things stand (too little of the token or of SUI for gas, or the dry run fails on chain),
 * `wallet_busy` when the coins it needs are in a payout in flight, `wrong_key`; other errors are
 * worth a retry.
 */
export async function signPayout(
  ctx: SuiContext,
  input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  },
): Promise<SignedPayout> {
  const keypair = Ed25519Keypair.fromSecretKey(new Uint8Array(input.privateKey));
  const sender = normalizeSuiAddress(keypair.toSuiAddress());
  if (sender !== normalizeSuiAddress(input.from))
    throw new ChainError('wrong_key', 'The signing key does not match the hot wallet');
  const { token, amountBase: amount } = input;
  if (amount <= 0n) throw new ChainError('payout_rejected', 'The payout amount must be positive.');
  const native = token.contract === null;
  const coinType = native ? SUI_COIN_TYPE : normalizeCoinType(token.contract as string);
  if (coinType === null) throw new ChainError('payout_rejected', `${token.contract} is not a Sui coin type.`);

  const price = await referenceGasPrice(ctx);
  const ceiling = payoutFeeCeiling(price);
  const busy = busyObjects(ctx);
  const free = (list: CoinRef[]) => list.filter((c) => !busy.has(objectKey(c)));

  let tokenCoins: CoinRef[] | null = null;
  if (!native) {
    const all = await coins(ctx, { owner: sender, coinType });
    const pick = selectCoins(free(all), amount);
    if (!pick.enough) {
      if (held(all) < amount) {
        throw new ChainError(
          'payout_rejected',
          `The hot wallet holds ${formatAmount(held(all), token.decimals)} ${token.symbol} in coins; the payout needs ${formatAmount(amount, token.decimals)}.`,
        );
      }
      if (selectCoins(all, amount).enough) throw coinsBusy(ctx, token.symbol);
      throw new ChainError(
        'payout_rejected',
        `The hot wallet's ${token.symbol} is spread over more than ${MAX_COINS_PER_TRANSACTION} coins; merge them first.`,
      );
    }
    tokenCoins = pick.coins;
  }

  const allSui = await coins(ctx, { owner: sender, coinType: SUI_COIN_TYPE });
  const spend = native ? amount : 0n;
  const gasPick = selectCoins(free(allSui), spend + ceiling);
  const available = gasPick.total - spend;
  const minBudget = price * MIN_BUDGET_UNITS;
  const lacksGas = (have: bigint) =>
    new ChainError(
      'payout_rejected',
      `The hot wallet ${sender} has too little SUI for this payout: ${formatAmount(have, 9)} SUI in coins, needs ${native ? `${formatAmount(amount, 9)} SUI plus ` : ''}gas (up to ${formatAmount(ceiling, 9)} SUI).`,
    );
  if (gasPick.coins.length === 0 || available < minBudget) {
    if (held(allSui) - spend >= minBudget && held(free(allSui)) < held(allSui)) throw coinsBusy(ctx, 'SUI');
    throw lacksGas(held(allSui));
  }

  const base = {
    sender,
    to: normalizeSuiAddress(input.to),
    amount,
    tokenCoins,
    gasCoins: gasPick.coins,
    gasPrice: price,
  };
  const dryBudget = available < ceiling * DRY_RUN_BUDGET_FACTOR ? available : ceiling * DRY_RUN_BUDGET_FACTOR;
  const draft = await buildPayoutTransaction({ ...base, gasBudget: dryBudget });
  const effects = await dryRun(ctx, { bytes: draft });
  const status = effects?.status;
  if (status?.success !== true) {
    const kind = status?.error?.kind;
    const short =
      (kind === EXECUTION_ERROR_KIND.INSUFFICIENT_GAS && dryBudget === available) ||
      (kind === EXECUTION_ERROR_KIND.INSUFFICIENT_COIN_BALANCE && native);
    if (short && held(free(allSui)) < held(allSui)) throw coinsBusy(ctx, 'SUI');
    if (short) throw lacksGas(held(allSui));
    throw new ChainError('payout_rejected', `The transfer would fail on chain: ${describeFailure(status)}.`);
  }
  const cost = (effects?.gasUsed?.computationCost ?? 0n) + (effects?.gasUsed?.storageCost ?? 0n);
  let budget = ctx.gasBudget(cost, price);
  if (budget > available) budget = available;
  if (budget < minBudget) budget = minBudget;

  const bytes = await buildPayoutTransaction({ ...base, gasBudget: budget });
  const { signature } = await keypair.signTransaction(bytes);
  const digest = transactionDigest(bytes);
  rememberTransaction(ctx, digest, { bytes, signature }, false);
  ctx.logger.info(
    {
      chain: ctx.chain,
      txid: digest,
      gasBudget: budget.toString(),
      dryRunCost: cost.toString(),
      tokenCoins: tokenCoins?.length ?? 0,
      gasCoins: gasPick.coins.length,
    },
    'sui payout signed',
  );
  return {
    txHash: digest,
    raw: encodeRaw({ bytes, signature }),
    nonce: null,
    validUntil: null,
    slot: ownedInputs(bytes)
      .map((r) => `${r.objectId}@${r.version}`)
      .join(', '),
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
  };
}
