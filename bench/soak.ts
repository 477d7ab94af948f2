/**
 * Soak (issue 14): Kassa under continuous business and repeated crashes, then every invariant
 * checked. Not run in CI.
 *
 *   npx tsx bench/soak.ts --minutes 30 [--seed 14] [--keep]
 *
 * Local chains as the sandbox runs them (anvil for ETH with 3 confirmations, the fake TRON node
 * with 1 s blocks, the fake Sui node with 250 ms checkpoints), Kassa as real processes on one
 * SQLite database: `kassa api` + `kassa worker`, or `kassa start`, switched every few kills. For
 * `--minutes`, one driver:
 * - creates collections on ETH (USDT, USDC), TRON (USDT) and SUI (USDC), each paid in full, in two
 *   parts, late (after it expired), or not at all, by the sandbox customer's key;
 * - asks for payouts to fresh addresses (the merchants' ledgers are funded first, as
 *   `kassa ledger adjust` does);
 * - receives the webhooks on a receiver that checks both signatures and fails now and then
 *   (500, no answer, a dropped connection);
 * - SIGKILLs the worker (or `kassa start`) at random moments and starts it again.
 * Then it stops the business, lets Kassa drain with a receiver that always answers, and checks:
 * every collection paid in time SUCCESS exactly once with the amount paid (late and unpaid ones
 * EXPIRED, late payments recorded and not credited; an order whose payment failed on the
 * customer's side, so may or may not be on chain, may end either way); no transfer credited twice; every payout
 * SUCCESS with exactly one on-chain transfer (the fresh receiver holds exactly its amount); every
 * webhook delivered, and an order's events never sent before the previous one was acknowledged;
 * every ledger balance equal to the sum of its entries and to what the orders moved. Prints the
 * figures as JSON; exit code 0 when every invariant holds.
 *
 * This file wires the run together; its parts are in bench/soak/: the chains, Kassa's set-up and
 * processes, the webhook receiver, the business, the killer, the drain, the checks and the report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../test/helpers/cli.ts';
import { soakBusiness } from './soak/business.ts';
import { startSoakChains } from './soak/chains.ts';
import { checkLedger } from './soak/check-ledger.ts';
import { checkCollections, checkPayouts } from './soak/check-orders.ts';
import { checkWebhooks } from './soak/check-webhooks.ts';
import { soakDatabase } from './soak/database.ts';
import { drain } from './soak/drain.ts';
import { createSoakMerchants, writeKassaSetup } from './soak/kassa-setup.ts';
import { type Kills, killOnSchedule } from './soak/killer.ts';
import { log } from './soak/log.ts';
import { kassaProcesses } from './soak/processes.ts';
import { seededChance } from './soak/random.ts';
import { startReceiver } from './soak/receiver.ts';
import { soakFigures } from './soak/report.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    seed: { type: 'string', default: '14' },
    keep: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const SEED = Number(values.seed);
const chance = seededChance(SEED);

// --- set-up: chains, Kassa's configuration, the webhook receiver, merchants ----------------------
const dir = mkdtempSync(join(tmpdir(), 'kassa-soak-'));
const chains = await startSoakChains(dir);
const port = await freePort();
const kassa = writeKassaSetup({ dir, port, chainsConfig: chains.config });
const receiver = await startReceiver(chance.random);
const merchants = await createSoakMerchants(kassa, receiver, chains.tokens);
const processes = kassaProcesses(kassa);
const business = soakBusiness({ chains, merchants, port, chance });
const kills: Kills = { worker: 0, start: 0 };

// --- the business, with Kassa killed now and then ------------------------------------------------
const started = Date.now();
const load = { start: loadavg(), end: [0, 0, 0] };
log('soak starting', { minutes: MINUTES, seed: SEED, dir, port });
await processes.run('split');
const until = started + MINUTES * 60_000;
await Promise.all([business.run(until), killOnSchedule(processes, chance, until, kills)]);
const businessEnded = Date.now();
log('business over; draining', {
  collections: business.collections.length,
  payouts: business.payouts.length,
});
await Promise.all(business.pending);
await processes.run('split');
receiver.stopFailing();

// --- drain: wait until every order is where it must end ----------------------------------------
const rt = await kassa.openRuntime();
const db = soakDatabase(rt);
await drain(db, business);
const drainedAt = Date.now();
await processes.stopAll();
chains.stopMining();
load.end = loadavg();

// --- invariants ----------------------------------------------------------------------------------
const problems: string[] = [];
const problem = (text: string) => {
  if (problems.length < 200) problems.push(text);
};
const { byPlan } = checkCollections(db, business, problem);
const { payoutsRefused } = await checkPayouts(db, business, chains, problem);
const webhooks = checkWebhooks(db, receiver, problem);
await checkLedger(rt, db, problem);

const figures = soakFigures({
  minutes: MINUTES,
  seed: SEED,
  started,
  businessEnded,
  drainedAt,
  load,
  db,
  business,
  receiver,
  kills,
  byPlan,
  payoutsRefused,
  webhooks,
  problems,
});
await rt.close();
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
if (problems.length > 0) log('last Kassa log lines', { tails: processes.tails.slice(-20) });
await receiver.close();
await chains.stop();
if (!values.keep && problems.length === 0) rmSync(dir, { recursive: true, force: true });
else log('data kept', { dir });
process.exit(problems.length === 0 ? 0 : 1);
