import type { DashboardAccountStore } from './store/dashboard-accounts.ts';
import type { MerchantStore } from './store/merchants.ts';
import type { MoneyStore } from './store/money.ts';
import type { OperationsStore } from './store/operations.ts';
import type { OrderStore } from './store/orders.ts';
import type { ReconciliationStore } from './store/reconciliation.ts';
import type { ScanStore } from './store/scanning.ts';
import type { SweepStore } from './store/sweeping.ts';
import type { WebhookStore } from './store/webhooks.ts';
import type { WorkerLeaseStore } from './store/worker-leases.ts';

/**
 * The database as services see it: one port of async repository functions (DESIGN.md section 10).
 * Services hold a Store in `deps.db` and await every call; they never see the SQL driver, the
 * schema or a transaction. Each function is one atomic unit: a write takes everything it writes
 * (a scan step with its transfers, transitions, events and checkpoint; a transition with its
 * webhook event) and commits it or nothing, so another engine can run the same unit in one async
 * transaction.
 *
 * The SQLite implementation is sqlite-store.ts (the functions of ./repositories bound to one
 * handle); the suite every implementation must pass is store.contract.ts.
 */
export interface Store
  extends DashboardAccountStore,
    ScanStore,
    OrderStore,
    MoneyStore,
    WebhookStore,
    MerchantStore,
    OperationsStore,
    SweepStore,
    ReconciliationStore,
    WorkerLeaseStore {}

// The records the port reads and writes (the types of its arguments and results).
export type { AdminSessionWithUser } from './repositories/admin-sessions.ts';
export type { AdminRole, AdminSessionRecord, AdminUserRecord } from './repositories/admin-users.ts';
export type { BlockHash, Cursor, StoredTransfer, TransferWrite } from './repositories/chain-scan.ts';
export type { BalanceKey, LedgerEntry, MerchantBalance } from './repositories/ledger.ts';
export type { MerchantRecord } from './repositories/merchants.ts';
export type { CursorTimes, ReorgStats } from './repositories/ops.ts';
export type { OrderPatch } from './repositories/order-rows.ts';
export type { OrderCursor, OrderFilter, OrderPage } from './repositories/order-search.ts';
export type { OrderStatRow } from './repositories/order-stats.ts';
export type { OrderToken } from './repositories/order-token.ts';
export type { NewOrder, OrderTransition } from './repositories/orders.ts';
export type { HoldKind, PayoutHold } from './repositories/payout-holds.ts';
export type { PayoutListing } from './repositories/payout-queue.ts';
export type { AttemptStatus, AttemptUpdate, NewAttempt, PayoutAttempt } from './repositories/payouts.ts';
export type {
  ChainRecords,
  DepositAddressRecord,
  PayoutTxRecord,
  ReconciliationRun,
  SweepTxRecord,
  TransferInRecord,
  WalletFloat,
} from './repositories/reconciliation.ts';
export type { SweepCandidate } from './repositories/sweep-candidates.ts';
export type {
  NewOperatorCost,
  NewSweep,
  NewSweepTx,
  OperatorCostKind,
  Sweep,
  SweepStatus,
  SweepStep,
  SweepTx,
  SweepTxUpdate,
} from './repositories/sweeps.ts';
export type { TokenRecord } from './repositories/tokens.ts';
export type { FinalTransferRow, SliceCursor } from './repositories/transfer-totals.ts';
export type {
  AttemptOutcome,
  AttemptRecord,
  ClaimRequest,
  WebhookAttempt,
  WebhookEvent,
} from './repositories/webhook-events.ts';
export type { ListedWebhookEvent, WebhookLogEvent, WebhookLogFilter } from './repositories/webhook-log.ts';
export type { WorkerLease } from './repositories/worker-leases.ts';
