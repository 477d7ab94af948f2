/**
 * The English strings of the money pages: balances per merchant, what deposit addresses received,
 * sweeps and the last reconciliation, and one merchant's ledger with its adjustment form.
 */
export const enMoneyPages = {
  money: {
    title: 'Money',
    ledger: 'Balances per merchant',
    ledgerHelp:
      'The sum of each merchant’s ledger: available can be paid out, frozen is held by payouts not final yet.',
    merchant: 'Merchant',
    available: 'Available',
    frozen: 'Frozen',
    total: 'Total',
    updated: 'Updated',
    noBalances: 'No merchant has a balance yet.',
    openLedger: 'Open the ledger',
    deposits: 'Received on deposit addresses',
    depositsHelp:
      'Every final transfer to a deposit address, by chain and token, whether swept since or not.',
    received: 'Received',
    unattributed: 'Of which unattributed',
    transfers: 'Transfers',
    noDeposits: 'Nothing received yet.',
    sweeps: 'Sweeps and their costs',
    sweepsNotYet:
      'Not on this page yet: `kassa sweeps list` and `kassa sweeps costs` show the sweeps and their costs.',
    reconciliation: 'Reconciliation',
    reconciliationNone:
      'No reconciliation yet. Run `kassa reconcile` (the worker runs it daily): it compares every address’s balance on chain with the records.',
    reconciliationLast:
      'Last run {time}: {addresses} addresses, {unexplained} unexplained, {inFlight} in flight.',
    reconciliationClean: 'Every unit on chain is accounted for.',
    reconciliationProblems:
      'Differences nothing recorded explains (run `kassa reconcile` for the records involved):',
    reconciliationUnchecked: '{chain} was not checked: {error}',
    address: 'Address',
    role: 'Role',
    expected: 'Expected',
    actual: 'On chain',
    difference: 'Difference',
    seeDeposits: 'See the unattributed deposits',
  },
  ledger: {
    title: 'Ledger of {name}',
    balances: 'Balances',
    entries: 'Entries, newest first',
    time: 'Time',
    kind: 'Movement',
    available: 'Available',
    frozen: 'Frozen',
    cause: 'Order or reason',
    noEntries: 'No entry yet.',
    adjust: 'Adjust a balance',
    adjustHelp:
      'A top-up (+) or a correction (−) of the available balance, like kassa ledger adjust. The reason is required and kept in the entry. Frozen money belongs to payouts in flight and cannot be adjusted.',
    token: 'Chain and token',
    amount: 'Amount (+ or −)',
    reason: 'Reason',
    submit: 'Record the adjustment',
    back: 'Back to money',
  },
};
