/**
 * What the async Store port (issue 15) costs per repository call: the same read
 * (findOrderByMerchantOrderId, the createCollection path's lookup, and a cheap write-free query)
 * called directly on the SQLite repository and through the port (`await store.fn(...)`), in
 * alternating rounds, timed in CPU time of this process (process.cpuUsage), so that other load on a
 * shared machine moves both alike.
 *
 *   npx tsx bench/store-overhead.ts [--rounds 8] [--calls 50000]
 *
 * Prints the CPU µs per call of each way (median of the rounds) and the difference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { insertMerchant } from '../src/db/repositories/merchants.ts';
import { createOrder } from '../src/db/repositories/order-creation.ts';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import { createSqliteStore } from '../src/db/sqlite-store.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '8' }, calls: { type: 'string', default: '50000' } },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);

const dir = mkdtempSync(join(tmpdir(), 'kassa-bench-store-'));
const db = openDatabase(join(dir, 'kassa.db'));
applyMigrations(db);
const store = createSqliteStore(db);
const now = Date.now();
insertMerchant(db, {
  id: 'mch_bench',
  kind: 'V3',
  name: null,
  tokenSealed: 'x',
  webhookSecretSealed: 'x',
  callbackUrl: null,
  status: 'active',
  createdAt: now,
  updatedAt: now,
});
await createOrder(db, {
  order: {
    merchantId: 'mch_bench',
    orderId: 'B-1',
    uid: null,
    type: 'COLLECTION',
    chain: 'ETH',
    symbol: 'USDT',
    tokenContract: '0x00000000000000000000000000000000000000aa',
    decimals: 6,
    amount: '1',
    amountBase: 1_000_000n,
    fee: '0',
    address: null,
    receiveAddress: null,
    expiresAt: now + 3_600_000,
    paramsKey: 'k',
  },
  family: 'evm',
  derive: (family, index) => `${family}-${index}`,
  now,
});

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
async function direct(): Promise<number> {
  const start = cpuMicros();
  for (let i = 0; i < calls; i++)
    if (!findOrderByMerchantOrderId(db, 'mch_bench', 'B-1')) throw new Error('lost');
  return (cpuMicros() - start) / calls;
}
async function throughPort(): Promise<number> {
  const start = cpuMicros();
  for (let i = 0; i < calls; i++)
    if (!(await store.findOrderByMerchantOrderId('mch_bench', 'B-1'))) throw new Error('lost');
  return (cpuMicros() - start) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const a: number[] = [];
const b: number[] = [];
await direct(); // warm both paths up
await throughPort();
for (let r = 0; r < rounds; r++) {
  a.push(await direct());
  b.push(await throughPort());
}
db.$client.close();
rmSync(dir, { recursive: true, force: true });
const round = (x: number) => Math.round(x * 1000) / 1000;
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      calls,
      rounds,
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      cpuMicrosPerCall: { direct: round(median(a)), port: round(median(b)) },
      portOverheadMicros: round(median(b) - median(a)),
      rounds_direct: a.map(round),
      rounds_port: b.map(round),
    },
    null,
    2,
  ),
);
