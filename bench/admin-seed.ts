/**
 * Fills a migrated SQLite file with a shop's history for the dashboard benchmark: `orders` orders
 * over `days` days (oldest first, as the API inserts them), with their deposit addresses, the
 * transfers that paid them, payout attempts and one webhook event per settled order. Plain SQL in
 * large transactions with synchronous=OFF: this is test data, not Kassa's write path.
 *
 * The mix: five merchants (60 %, 25 %, 10 %, 4.9 %, 0.1 % of orders; the second is V2 with uids),
 * 92 % collections, chains TRON 45 %, BSC 22 %, ETH 15 %, POLYGON 11 %, SUI 7 % and none on
 * AVAX_C_CHAIN; settled collections 66 % SUCCESS, 33 % EXPIRED, 1 % FAILED; payouts 97 % SUCCESS;
 * the last half hour still open.
 */
import { createHash } from 'node:crypto';
import { loadConfig } from '../src/config/load.ts';
import { openDatabase } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createSqliteStore } from '../src/db/sqlite-store.ts';
import { createCryptoBox } from '../src/lib/crypto-box.ts';
import { createMerchant } from '../src/services/manage-merchants.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

export interface SeedResult {
  merchants: string[];
  /** Samples to search for: an orderId, a uid, a deposit address, a payout's destination and txids. */
  samples: {
    orderId: string;
    uid: string;
    address: string;
    receiveAddress: string;
    collectionTxid: string;
    payoutTxid: string;
    /** Internal id of the order 500,000 rows from the newest: a cursor deep in the table. */
    deepCursor: string;
  };
  now: number;
}

const hex = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').repeat(2).slice(0, length);
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const tronAddress = (n: number) =>
  `T${[...hex(`tron${n}`, 33)].map((c) => BASE58[Number.parseInt(c, 16) + 20]).join('')}`;

function pick<T>(r: number, table: [T, number][]): T {
  let acc = 0;
  for (const [value, share] of table) {
    acc += share;
    if (r < acc) return value;
  }
  return table[table.length - 1]?.[0] as T;
}

const CHAIN_MIX: [string, number][] = [
  ['TRON', 0.45],
  ['BSC', 0.22],
  ['ETH', 0.15],
  ['POLYGON', 0.11],
  ['SUI', 0.07],
];
const TOKENS: Record<string, { symbol: string; contract: string; decimals: number }[]> = {
  TRON: [{ symbol: 'USDT', contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 }],
  BSC: [
    { symbol: 'USDT', contract: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
    { symbol: 'USDC', contract: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
  ],
  ETH: [
    { symbol: 'USDT', contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
    { symbol: 'USDC', contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
  ],
  POLYGON: [{ symbol: 'USDC', contract: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6 }],
  SUI: [
    {
      symbol: 'USDC',
      contract: '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
      decimals: 6,
    },
  ],
};

/** Seeds `path` (a new file) and returns what the benchmark searches for. */
export async function seedShop(path: string, options: { orders: number; days: number; now: number }) {
  const db = openDatabase(path);
  applyMigrations(db);
  const sqlite = db.$client;
  sqlite.pragma('synchronous = OFF');
  const box = createCryptoBox(Buffer.from('22'.repeat(32), 'hex'));
  const clock = { now: () => options.now - options.days * 86_400_000 };
  const config = await loadConfig({ env: {} });
  const merchants: string[] = [];
  for (const [i, kind] of (['V3', 'V2', 'V3', 'V3', 'V3'] as const).entries())
    merchants.push(
      (
        await createMerchant(
          { db: createSqliteStore(db), box, clock, config },
          { kind, name: `Shop ${i + 1}` },
        )
      ).merchantId,
    );
  const merchantMix: [number, number][] = [
    [0, 0.6],
    [1, 0.25],
    [2, 0.1],
    [3, 0.049],
    [4, 0.001],
  ];

  const insertOrder = sqlite.prepare(
    `INSERT INTO orders (id, merchant_id, order_id, uid, type, chain, symbol, token_contract, decimals, amount,
       amount_base, fee, status, reason, address, receive_address, expires_at, received_base, actual_amount_base,
       tx_id, tx_from, tx_to, tx_amount_base, tx_block_num, tx_confirmed_num, tx_status, tx_timestamp, params_key,
       version, created_at, updated_at)
     VALUES (@id, @merchantId, @orderId, @uid, @type, @chain, @symbol, @contract, @decimals, @amount, @amountBase,
       '0.00', @status, @reason, @address, @receiveAddress, @expiresAt, @receivedBase, @actualBase, @txId, @txFrom,
       @txTo, @txAmount, @txBlock, @txConf, @txStatus, @txTime, 'bench', @version, @createdAt, @updatedAt)`,
  );
  const insertAddress = sqlite.prepare(
    'INSERT INTO deposit_addresses (family, idx, address, order_ref, created_at, allocated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertTransfer = sqlite.prepare(
    `INSERT INTO chain_transfers (id, chain, txid, event_key, block_num, block_hash, block_timestamp, from_address,
       to_address, token_contract, symbol, amount_base, status, order_ref, unattributed_reason, created_at, updated_at)
     VALUES (?, ?, ?, '0', ?, ?, ?, ?, ?, ?, ?, ?, 'final', ?, NULL, ?, ?)`,
  );
  const insertAttempt = sqlite.prepare(
    `INSERT INTO payout_attempts (id, order_ref, chain, from_address, nonce, tx_hash, raw_tx, status, block_num,
       valid_until, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, NULL, NULL, ?, ?)`,
  );
  const insertEvent = sqlite.prepare(
    `INSERT INTO webhook_events (id, merchant_id, order_ref, order_version, notify_type, data, status, attempts,
       next_attempt_at, retry_until, last_error, created_at, delivered_at) VALUES (?, ?, ?, 3, ?, '{}', ?, 1, ?, NULL, ?, ?, ?)`,
  );

  const rnd = seededRandom(17); // every run seeds the same data
  const span = options.days * 86_400_000;
  const start = options.now - span;
  const indexes = { evm: 0, tron: 0, sui: 0 };
  const nonces = new Map<string, number>();
  const samples = {} as SeedResult['samples'];
  const batch = 50_000;
  for (let from = 0; from < options.orders; from += batch) {
    sqlite.transaction(() => {
      for (let n = from; n < Math.min(options.orders, from + batch); n++) {
        const createdAt = start + Math.floor((span * n) / options.orders);
        const m = pick(rnd(), merchantMix);
        const merchantId = merchants[m] as string;
        const type = rnd() < 0.92 ? 'COLLECTION' : 'PAYOUT';
        const chain = pick(rnd(), CHAIN_MIX);
        const tokens = TOKENS[chain] as (typeof TOKENS)['ETH'];
        const token = tokens[Math.floor(rnd() * tokens.length)] as (typeof tokens)[number];
        const whole = 1 + Math.floor(rnd() * 500);
        const cents = Math.floor(rnd() * 100);
        const amount = `${whole}.${String(cents).padStart(2, '0')}`;
        const amountBase = (BigInt(whole * 100 + cents) * 10n ** BigInt(token.decimals - 2)).toString();
        const open = options.now - createdAt < 30 * 60_000;
        const r = rnd();
        const status = open
          ? pick(r, [
              ['INIT', 0.7],
              ['PENDING', 0.2],
              ['PENDING_CONFIRMATION', 0.1],
            ])
          : type === 'PAYOUT'
            ? r < 0.97
              ? 'SUCCESS'
              : 'FAILED'
            : pick(r, [
                ['SUCCESS', 0.66],
                ['EXPIRED', 0.33],
                ['FAILED', 0.01],
              ]);
        const id = `ord_${hex(`order${n}`, 20)}`;
        const family = chain === 'TRON' ? 'tron' : chain === 'SUI' ? 'sui' : 'evm';
        const idx = indexes[family]++;
        const address =
          type === 'PAYOUT'
            ? family === 'tron'
              ? tronAddress(-1)
              : `0x${hex(`hot${family}`, family === 'sui' ? 64 : 40)}`
            : family === 'tron'
              ? tronAddress(idx)
              : `0x${hex(`dep${family}${idx}`, family === 'sui' ? 64 : 40)}`;
        const receiveAddress =
          type === 'PAYOUT'
            ? family === 'tron'
              ? tronAddress(1_000_000 + (n % 5000))
              : `0x${hex(`dest${n % 5000}`, family === 'sui' ? 64 : 40)}`
            : null;
        const paid = status === 'SUCCESS' || status === 'PENDING_CONFIRMATION';
        const txId = paid ? `${family === 'tron' ? '' : '0x'}${hex(`tx${n}`, 64)}` : null;
        const uid = m === 1 ? `user-${Math.floor(rnd() * 40_000)}` : null;
        const orderId = m === 1 ? `v2_${hex(`oid${n}`, 16)}` : `INV-${n}`;
        insertOrder.run({
          id,
          merchantId,
          orderId,
          uid,
          type,
          chain,
          symbol: token.symbol,
          contract: token.contract,
          decimals: token.decimals,
          amount,
          amountBase,
          status,
          reason: status === 'EXPIRED' ? 'Expired without payment.' : null,
          address,
          receiveAddress,
          expiresAt: createdAt + 30 * 60_000,
          receivedBase: paid ? amountBase : '0',
          actualBase: status === 'SUCCESS' ? amountBase : null,
          txId,
          txFrom: paid ? (receiveAddress ?? `0x${hex(`payer${n}`, 40)}`) : null,
          txTo: paid ? address : null,
          txAmount: paid ? amountBase : null,
          txBlock: paid ? 1_000_000 + n : null,
          txConf: paid ? 20 : null,
          txStatus: paid ? (status === 'SUCCESS' ? 'SUCCESS' : 'PENDING') : null,
          txTime: paid ? Math.floor(createdAt / 1000) + 60 : null,
          version: open ? 0 : 3,
          createdAt,
          updatedAt: createdAt + 120_000,
        });
        if (type === 'COLLECTION') {
          insertAddress.run(family, idx, address, id, createdAt, createdAt);
          if (paid && txId)
            insertTransfer.run(
              `trf_${hex(`t${n}`, 20)}`,
              chain,
              txId,
              1_000_000 + n,
              hex(`b${n}`, 64),
              Math.floor(createdAt / 1000) + 60,
              `0x${hex(`payer${n}`, 40)}`,
              address,
              token.contract,
              token.symbol,
              amountBase,
              id,
              createdAt + 60_000,
              createdAt + 120_000,
            );
        } else if (txId) {
          const key = `${chain}`;
          const nonce = nonces.get(key) ?? 0;
          nonces.set(key, nonce + 1);
          insertAttempt.run(
            `pat_${hex(`a${n}`, 20)}`,
            id,
            chain,
            address,
            family === 'evm' ? nonce : null,
            txId,
            status === 'SUCCESS' ? 'final' : 'mined',
            1_000_000 + n,
            createdAt + 5_000,
            createdAt + 120_000,
          );
        }
        if (!open) {
          const failedHook = n % 997 === 0;
          insertEvent.run(
            `evt_${hex(`e${n}`, 20)}`,
            merchantId,
            id,
            `ORDER_${status}`,
            failedHook ? 'failed' : 'delivered',
            createdAt + 130_000,
            failedHook ? 'HTTP 500' : null,
            createdAt + 120_000,
            failedHook ? null : createdAt + 121_000,
          );
        }
        if (n === Math.floor(options.orders / 2)) samples.deepCursor = id;
        if (!samples.uid && uid) samples.uid = uid;
        if (n > options.orders * 0.3 && !samples.orderId && m === 0) samples.orderId = orderId;
        if (n > options.orders * 0.4 && !samples.address && type === 'COLLECTION' && family === 'evm')
          samples.address = address;
        if (n > options.orders * 0.5 && !samples.receiveAddress && receiveAddress)
          samples.receiveAddress = receiveAddress;
        if (n > options.orders * 0.6 && !samples.collectionTxid && txId && type === 'COLLECTION')
          samples.collectionTxid = txId;
        if (n > options.orders * 0.7 && !samples.payoutTxid && txId && type === 'PAYOUT')
          samples.payoutTxid = txId;
      }
    })();
  }
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.close();
  return { merchants, samples, now: options.now } satisfies SeedResult;
}
