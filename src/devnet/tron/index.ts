/**
 * A fake java-tron full node for tests and `kassa sandbox`.
 *
 * `startFakeTronNode({ blockIntervalMs, solidLag, genesis, port })` serves on 127.0.0.1:
 * - `/wallet/*`: getnowblock, getblock, getblockbynum, getblockbyid, getblockbylimitnext,
 *   getblockbylatestnum, gettransactionbyid, gettransactioninfobyid, gettransactioninfobyblocknum,
 *   getaccount, getaccountresource, getaccountnet, createtransaction, triggersmartcontract,
 *   triggerconstantcontract, estimateenergy, broadcasttransaction, getcontract, getcontractinfo,
 *   getchainparameters, getenergyprices, getbandwidthprices, getnodeinfo, delegateresource,
 *   undelegateresource, getcandelegatedmaxsize (Stake 2.0 energy lending; broadcast executes
 *   DelegateResourceContract and UnDelegateResourceContract, genesis accounts can start with
 *   `frozenEnergySun`);
 * - `/walletsolidity/*`: the read twins, answering from the solidified block only;
 * - `/_fake/*` (POST JSON, amounts as decimal strings): `mine {n}`, `fork {n, reinclude?}`,
 *   `fail {mode, count?, paths?, afterProcessing?}` (`{mode: "none"}` clears), `set-trx {address, sun}`,
 *   `deploy-trc20 {symbol, name, decimals, owner?, returnsFalse?, address?}`,
 *   `mint-trc20 {contract, to, amount}`, `balance {address, contract?, view?}`, `state`.
 * Fees and their sources: params.ts. Wire conventions: chains.md part A.
 */
export type { DeployTrc20Options, Genesis, GenesisAccount, View } from './chain.ts';
export type { FailMode, FailRule } from './faults.ts';
export type { FakeTronNode, FakeTronNodeOptions, FakeTronState } from './server.ts';
export { startFakeTronNode } from './server.ts';
