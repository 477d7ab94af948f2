import type { ChainRecords } from '../../db/store.ts';

/**
 * What Kassa's records say each of its addresses holds on one chain, as a list of signed movements
 * per address and token (pure: records in, movements out). A movement counts once its transaction
 * landed in a block at or below the height the balances are read at; a transaction signed or
 * broadcast but not seen in a block is `inFlight` (it may land any moment, or never).
 */

/** What moved funds on an address, as the records tell it. */
export interface Movement {
  kind:
    | 'deposit'
    | 'unattributed_deposit'
    | 'gas_topup_in'
    | 'gas_topup_out'
    | 'sweep_out'
    | 'sweep_in'
    | 'payout'
    | 'fee';
  /** The transaction (and the order it served, when one did). */
  txHash: string;
  orderId: string | null;
  /** Signed base units: positive in, negative out. Zero with `feeUnknown` when the fee could not be read. */
  amountBase: bigint;
  inFlight: boolean;
  feeUnknown?: boolean;
}

/** The movements of one address in one token. */
export interface Holding {
  address: string;
  symbol: string;
  role: 'deposit' | 'hot';
  /** The merchant and orderId of the collection that owns the deposit address (null for the hot wallet or an unknown address). */
  merchantId: string | null;
  orderId: string | null;
  movements: Movement[];
}

/** The height, wallets and fees the movements are judged with. */
export interface HoldingsContext {
  /** Records of transactions in blocks above it are left out (they landed after the balances read). */
  atHeight: number;
  /** The chain's native coin symbol (fees and top-ups are paid in it). */
  nativeSymbol: string;
  /** Every symbol configured on the chain: each address gets a holding in each. */
  symbols: string[];
  /** The chain's hot wallet now. */
  hotWallet: string;
  /** Fee of each landed transaction by hash; null when it could not be read. */
  fees: ReadonlyMap<string, bigint | null>;
  /** Address spelling used as a key (EVM and Sui case-insensitive, TRON base58 as is). */
  key: (address: string) => string;
}

const LANDED = new Set(['mined', 'final']);
const IN_FLIGHT = new Set(['signed', 'broadcast']);

/** Whether a transaction in this state had landed by `atHeight` (failed on chain counts: it burnt its fee). */
export function landedBy(status: string, blockNum: number | null, atHeight: number): boolean {
  if (blockNum === null || blockNum > atHeight) return false;
  return LANDED.has(status) || status === 'failed';
}

/**
 * Transactions whose fee the reconciliation needs: landed by `atHeight` without a recorded fee, and
 * those signed or broadcast but not recorded in a block (a fee the chain knows means it landed).
 */
export function transactionsNeedingFees(
  records: ChainRecords,
  atHeight: number,
): { txHash: string; final: boolean }[] {
  const out: { txHash: string; final: boolean }[] = [];
  for (const p of records.payouts)
    if (landedBy(p.status, p.blockNum, atHeight) || IN_FLIGHT.has(p.status))
      out.push({ txHash: p.txHash, final: p.status === 'final' });
  for (const t of records.sweepTxs)
    if ((t.feeBase === null && landedBy(t.status, t.blockNum, atHeight)) || IN_FLIGHT.has(t.status))
      out.push({ txHash: t.txHash, final: t.status === 'final' });
  return out;
}

const bareHash = (hash: string) => hash.toLowerCase().replace(/^0x/, '');

/**
 * Every address Kassa owns on the chain (its collections' deposit addresses, addresses that
 * received a recorded transfer or were swept, its hot wallets past and present) in every
 * configured token, each with the movements the records explain its balance by.
 */
export function expectedHoldings(records: ChainRecords, ctx: HoldingsContext): Holding[] {
  const holdings = new Map<string, Holding>();
  const owners = new Map<string, { merchantId: string; orderId: string }>();
  for (const d of records.deposits) owners.set(ctx.key(d.address), d);
  const hotWallets = new Set<string>([ctx.key(ctx.hotWallet)]);
  for (const p of records.payouts) hotWallets.add(ctx.key(p.fromAddress));
  for (const t of records.sweepTxs) if (t.role !== 'transfer') hotWallets.add(ctx.key(t.fromAddress));

  const addAddress = (address: string) => {
    const k = ctx.key(address);
    for (const symbol of ctx.symbols) {
      const id = `${k}/${symbol}`;
      if (holdings.has(id)) continue;
      const owner = owners.get(k);
      holdings.set(id, {
        address,
        symbol,
        role: hotWallets.has(k) ? 'hot' : 'deposit',
        merchantId: owner?.merchantId ?? null,
        orderId: owner?.orderId ?? null,
        movements: [],
      });
    }
  };
  const move = (address: string, symbol: string, m: Movement) => {
    addAddress(address);
    holdings.get(`${ctx.key(address)}/${symbol}`)?.movements.push(m);
  };
  const fee = (payer: string, txHash: string, recorded: bigint | null, orderId: string | null) => {
    const known = recorded ?? ctx.fees.get(txHash) ?? null;
    move(payer, ctx.nativeSymbol, {
      kind: 'fee',
      txHash,
      orderId,
      amountBase: known === null ? 0n : -known,
      inFlight: false,
      ...(known === null ? { feeUnknown: true } : {}),
    });
  };

  // A transaction the records have not seen in a block may have landed: the chain's fee for it, if any.
  const inFlightFee = (payer: string, txHash: string, orderId: string | null) => {
    const known = ctx.fees.get(txHash);
    if (known !== undefined && known !== null)
      move(payer, ctx.nativeSymbol, { kind: 'fee', txHash, orderId, amountBase: -known, inFlight: true });
  };

  addAddress(ctx.hotWallet);
  for (const d of records.deposits) addAddress(d.address);

  const seenIn = new Set<string>();
  for (const t of records.transfersIn) {
    seenIn.add(`${ctx.key(t.address)}/${bareHash(t.txid)}`);
    move(t.address, t.symbol, {
      kind: t.orderId === null ? 'unattributed_deposit' : 'deposit',
      txHash: t.txid,
      orderId: t.orderId,
      amountBase: t.amountBase,
      inFlight: false,
    });
  }

  for (const p of records.payouts) {
    const landed = landedBy(p.status, p.blockNum, ctx.atHeight);
    const inFlight = IN_FLIGHT.has(p.status);
    if (landed) fee(p.fromAddress, p.txHash, null, p.orderId);
    else if (inFlight) inFlightFee(p.fromAddress, p.txHash, p.orderId);
    const moved = landed && LANDED.has(p.status);
    if (moved || inFlight)
      move(p.fromAddress, p.symbol, {
        kind: 'payout',
        txHash: p.txHash,
        orderId: p.orderId,
        amountBase: -p.amountBase,
        inFlight,
      });
    else addAddress(p.fromAddress);
  }

  for (const t of records.sweepTxs) {
    const landed = landedBy(t.status, t.blockNum, ctx.atHeight);
    const inFlight = IN_FLIGHT.has(t.status);
    if (landed) fee(t.feePayer ?? t.fromAddress, t.txHash, t.feeBase, null);
    else if (inFlight) inFlightFee(t.feePayer ?? t.fromAddress, t.txHash, null);
    const moved = landed && LANDED.has(t.status);
    if (!moved && !inFlight) {
      addAddress(t.fromAddress);
      continue;
    }
    if (t.role === 'topup') {
      move(t.fromAddress, ctx.nativeSymbol, {
        kind: 'gas_topup_out',
        txHash: t.txHash,
        orderId: null,
        amountBase: -t.valueBase,
        inFlight,
      });
      // The scanner may have recorded the top-up as a native deposit already: count it once.
      if (!seenIn.has(`${ctx.key(t.toAddress)}/${bareHash(t.txHash)}`))
        move(t.toAddress, ctx.nativeSymbol, {
          kind: 'gas_topup_in',
          txHash: t.txHash,
          orderId: null,
          amountBase: t.valueBase,
          inFlight,
        });
    } else if (t.role === 'transfer') {
      move(t.fromAddress, t.symbol, {
        kind: 'sweep_out',
        txHash: t.txHash,
        orderId: null,
        amountBase: -t.valueBase,
        inFlight,
      });
      if (t.destinationKind === 'hot')
        move(t.toAddress, t.symbol, {
          kind: 'sweep_in',
          txHash: t.txHash,
          orderId: null,
          amountBase: t.valueBase,
          inFlight,
        });
    }
    // delegate / undelegate lend staked TRX as energy: only their fee moves the balance.
  }
  return [...holdings.values()];
}
