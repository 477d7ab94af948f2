import type { Chain, View } from './chain.ts';
import { type HexAddress, normalizeHex, parseHexAddress, selectorOf, utf8Hex } from './encoding.ts';
import { contractValidateServletError, Refusal, ServletError } from './errors.ts';
import { simulate } from './execute.ts';
import { i64 } from './json.ts';
import { PARAMS } from './params.ts';
import {
  renderAccount,
  renderAccountNet,
  renderAccountResource,
  renderBlock,
  renderChainParameters,
  renderContract,
  renderContractInfo,
  renderIncluded,
  renderInfo,
  renderUnsigned,
} from './render.ts';
import { delegatableEnergySun } from './state.ts';
import { normalizeSignature, parseInt64, parseRawData, seal, type TriggerCall } from './transaction.ts';
import { VIEW_SELECTORS } from './trc20.ts';

/** Request parameters: the JSON body merged over the query string (values may be strings). */
export type Params = Readonly<Record<string, unknown>>;

type Handler = (chain: Chain, params: Params, view: View) => unknown;

interface Route {
  readonly handler: Handler;
  /** also served under /walletsolidity */
  readonly solidity: boolean;
}

const ZERO_ADDRESS: HexAddress = '410000000000000000000000000000000000000000';
const NO_CONTRACT = 'No contract or not a valid smart contract';

/**
 * Answers a `/wallet/*` or `/walletsolidity/*` call the way java-tron's servlets do: HTTP 200,
 * `{}` for not-found, `{"Error": "class … : …"}` for exceptions. Returns undefined for a path the
 * node does not serve (the HTTP layer answers 404).
 */
export function handleWalletApi(chain: Chain, path: string, params: Params): { body: unknown } | undefined {
  const match = /^\/(wallet|walletsolidity)\/([a-zA-Z]+)$/.exec(path);
  if (match === null) return undefined;
  const view: View = match[1] === 'walletsolidity' ? 'solid' : 'full';
  const route = ROUTES[match[2]!.toLowerCase()];
  if (route === undefined || (view === 'solid' && !route.solidity)) return undefined;
  try {
    if (flag(params.visible)) {
      throw new ServletError(
        'java.lang.IllegalArgumentException',
        'the fake TRON node only speaks visible=false',
      );
    }
    return { body: route.handler(chain, params, view) };
  } catch (error) {
    if (error instanceof ServletError) return { body: error.body() };
    if (error instanceof RangeError)
      return { body: { Error: `class java.lang.IllegalArgumentException : ${error.message}` } };
    throw error;
  }
}

const ROUTES: Readonly<Record<string, Route>> = {
  getnowblock: { solidity: true, handler: (chain, _params, view) => renderBlock(chain.latest(view)) },
  getblock: { solidity: true, handler: getBlock },
  getblockbynum: {
    solidity: true,
    handler: (chain, params, view) => {
      const block = chain.block(Number(parseInt64(params.num, 'num')), view);
      return block === undefined ? {} : renderBlock(block);
    },
  },
  getblockbyid: {
    solidity: true,
    handler: (chain, params, view) => {
      const block = chain.blockById(normalizeHex(params.value ?? '', 'value'), view);
      return block === undefined ? {} : renderBlock(block);
    },
  },
  getblockbylimitnext: { solidity: true, handler: getBlockByLimitNext },
  getblockbylatestnum: {
    solidity: true,
    handler: (chain, params, view) => {
      const count = Number(parseInt64(params.num, 'num'));
      if (count <= 0 || count > 100) return {};
      const head = chain.latest(view).number;
      return blockList(chain, view, Math.max(0, head - count + 1), head + 1);
    },
  },
  gettransactionbyid: {
    solidity: true,
    handler: (chain, params, view) => {
      const found = chain.transaction(normalizeHex(params.value ?? '', 'value'), view);
      return found === undefined ? {} : renderIncluded(found.included);
    },
  },
  gettransactioninfobyid: {
    solidity: true,
    handler: (chain, params, view) => {
      const found = chain.transaction(normalizeHex(params.value ?? '', 'value'), view);
      return found === undefined ? {} : renderInfo(found.included, found.block);
    },
  },
  gettransactioninfobyblocknum: {
    solidity: true,
    handler: (chain, params, view) => {
      const number = Number(parseInt64(params.num, 'num'));
      if (number <= 0) return {};
      // java-tron answers [] for a block it does not have yet, exactly like for an empty block.
      const block = chain.block(number, view);
      return block === undefined ? [] : block.txs.map((included) => renderInfo(included, block));
    },
  },
  getaccount: {
    solidity: true,
    handler: (chain, params, view) => {
      const address = parseHexAddress(params.address, 'address');
      const account = chain.state(view).accounts.get(address);
      return account === undefined ? {} : renderAccount(address, account, chain.latest(view).timestamp);
    },
  },
  getaccountresource: {
    solidity: false,
    handler: (chain, params) => {
      const account = chain.state('full').accounts.get(parseHexAddress(params.address, 'address'));
      return account === undefined ? {} : renderAccountResource(account, chain.head.timestamp);
    },
  },
  getaccountnet: {
    solidity: false,
    handler: (chain, params) => {
      const account = chain.state('full').accounts.get(parseHexAddress(params.address, 'address'));
      return account === undefined ? {} : renderAccountNet(account, chain.head.timestamp);
    },
  },
  createtransaction: { solidity: false, handler: createTransaction },
  delegateresource: { solidity: false, handler: (chain, params) => buildResource(chain, params, true) },
  undelegateresource: { solidity: false, handler: (chain, params) => buildResource(chain, params, false) },
  getcandelegatedmaxsize: {
    solidity: false,
    handler: (chain, params) => {
      const type = Number(parseInt64(params.type, 'type'));
      const account = chain
        .state('full')
        .accounts.get(parseHexAddress(params.owner_address, 'owner_address'));
      if (type !== 0 && type !== 1) throw contractValidateServletError('type must be 0 or 1');
      const size =
        account === undefined || type === 0 ? 0n : delegatableEnergySun(account, chain.head.timestamp);
      return { max_size: i64(size) };
    },
  },
  triggersmartcontract: { solidity: false, handler: triggerSmartContract },
  triggerconstantcontract: { solidity: true, handler: triggerConstantContract },
  estimateenergy: { solidity: true, handler: estimateEnergy },
  broadcasttransaction: { solidity: false, handler: broadcastTransaction },
  getcontract: {
    solidity: false,
    handler: (chain, params) => {
      const token = chain.state('full').tokens.get(parseHexAddress(params.value, 'value'));
      return token === undefined ? {} : renderContract(token);
    },
  },
  getcontractinfo: {
    solidity: false,
    handler: (chain, params) => {
      const token = chain.state('full').tokens.get(parseHexAddress(params.value, 'value'));
      return token === undefined ? {} : renderContractInfo(token);
    },
  },
  getchainparameters: { solidity: false, handler: () => renderChainParameters() },
  getenergyprices: { solidity: false, handler: () => ({ prices: `0:${PARAMS.energyPriceSun}` }) },
  getbandwidthprices: { solidity: false, handler: () => ({ prices: `0:${PARAMS.bandwidthPriceSun}` }) },
  getnodeinfo: {
    solidity: true,
    handler: (chain) => ({
      beginSyncNum: i64(chain.head.number),
      block: `Num:${chain.head.number},ID:${chain.head.id}`,
      solidityBlock: `Num:${chain.solid.number},ID:${chain.solid.id}`,
      currentConnectCount: 0,
      activeConnectCount: 0,
      passiveConnectCount: 0,
      configNodeInfo: { codeVersion: '4.8.0', versionNum: '19000', p2pVersion: '11111', dbVersion: 2 },
    }),
  },
};

function getBlock(chain: Chain, params: Params, view: View): unknown {
  const detail = flag(params.detail);
  const idOrNum = params.id_or_num === undefined ? '' : String(params.id_or_num).trim();
  if (idOrNum === '') return renderBlock(chain.latest(view), detail);
  if (/^-?\d+$/.test(idOrNum) && idOrNum.length < 20) {
    const number = Number(idOrNum);
    if (number < 0) return { Error: 'num must be non-positive number.' };
    const block = chain.block(number, view);
    return block === undefined ? {} : renderBlock(block, detail);
  }
  if (!/^[0-9a-fA-F]{64}$/.test(idOrNum)) return { Error: 'id must be legal block hash.' };
  const block = chain.blockById(idOrNum.toLowerCase(), view);
  return block === undefined ? {} : renderBlock(block, detail);
}

function getBlockByLimitNext(chain: Chain, params: Params, view: View): unknown {
  const start = Number(parseInt64(params.startNum, 'startNum'));
  const end = Number(parseInt64(params.endNum, 'endNum'));
  if (end <= 0 || end <= start || end - start > 100) return {};
  return blockList(chain, view, Math.max(0, start), end);
}

function blockList(chain: Chain, view: View, start: number, end: number): unknown {
  const blocks = [];
  for (let number = start; number < end; number += 1) {
    const block = chain.block(number, view);
    if (block === undefined) break;
    blocks.push(renderBlock(block));
  }
  return blocks.length === 0 ? {} : { block: blocks };
}

function createTransaction(chain: Chain, params: Params): unknown {
  const owner = addressOr(params.owner_address, 'Invalid ownerAddress!');
  const to = addressOr(params.to_address, 'Invalid toAddress!');
  const amount = parseInt64(params.amount, 'amount');
  if (owner === to) throw contractValidateServletError('Cannot transfer TRX to yourself.');
  const state = chain.state('full');
  const account = state.accounts.get(owner);
  if (account === undefined)
    throw contractValidateServletError('Validate TransferContract error, no OwnerAccount.');
  if (amount <= 0n) throw contractValidateServletError('Amount must be greater than 0.');
  const recipient = state.accounts.get(to);
  if (recipient?.isContract) throw contractValidateServletError('Cannot transfer TRX to a smart contract.');
  const creationFee = recipient === undefined ? PARAMS.createNewAccountFeeSun : 0n;
  if (account.balance < amount + creationFee) {
    throw contractValidateServletError('Validate TransferContract error, balance is not sufficient.');
  }
  const tx = chain.build(
    { type: 'TransferContract', owner, to, amount },
    {
      permissionId: Number(parseInt64(params.Permission_id, 'Permission_id')),
      memo: params.extra_data === undefined ? '' : normalizeHex(params.extra_data, 'extra_data'),
    },
  );
  return renderUnsigned(tx);
}

/**
 * /wallet/delegateresource and /wallet/undelegateresource: the node builds the Stake 2.0 contract
 * (tronweb builds it locally instead; both give the same bytes). Validation happens at broadcast.
 */
function buildResource(chain: Chain, params: Params, delegate: boolean): unknown {
  const owner = addressOr(params.owner_address, 'Invalid ownerAddress!');
  const receiver = addressOr(params.receiver_address, 'Invalid receiverAddress!');
  const resource = params.resource === undefined ? 'BANDWIDTH' : String(params.resource);
  if (resource !== 'BANDWIDTH' && resource !== 'ENERGY')
    throw contractValidateServletError('ResourceCode error, valid ResourceCode[BANDWIDTH、ENERGY]');
  const common = { owner, receiver, balance: parseInt64(params.balance, 'balance'), resource } as const;
  const tx = chain.build(
    delegate
      ? {
          type: 'DelegateResourceContract',
          ...common,
          lock: flag(params.lock),
          lockPeriod: parseInt64(params.lock_period, 'lock_period'),
        }
      : { type: 'UnDelegateResourceContract', ...common },
    { permissionId: Number(parseInt64(params.Permission_id, 'Permission_id')) },
  );
  return renderUnsigned(tx);
}

/** Reads owner/contract/calldata of a trigger request: `function_selector` + `parameter`, or `data`. */
function readCall(params: Params, ownerRequired: boolean): TriggerCall {
  const owner =
    params.owner_address === undefined && !ownerRequired
      ? ZERO_ADDRESS
      : parseHexAddress(params.owner_address, 'owner_address');
  const contract = parseHexAddress(params.contract_address, 'contract_address');
  let data = '';
  if (typeof params.function_selector === 'string' && params.function_selector !== '') {
    const parameter = params.parameter === undefined ? '' : normalizeHex(params.parameter, 'parameter');
    data = selectorOf(params.function_selector) + parameter;
  } else if (params.data !== undefined) {
    data = normalizeHex(params.data, 'data');
  }
  return {
    type: 'TriggerSmartContract',
    owner,
    contract,
    data,
    callValue: parseInt64(params.call_value, 'call_value'),
    callTokenValue: parseInt64(params.call_token_value, 'call_token_value'),
    tokenId: parseInt64(params.token_id, 'token_id'),
  };
}

function noContract(): unknown {
  return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: utf8Hex(NO_CONTRACT) } };
}

function triggerSmartContract(chain: Chain, params: Params): unknown {
  const call = readCall(params, true);
  const state = chain.state('full');
  if (!state.tokens.has(call.contract)) return noContract();
  const tx = chain.build(call, {
    feeLimit: parseInt64(params.fee_limit, 'fee_limit'),
    permissionId: Number(parseInt64(params.Permission_id, 'Permission_id')),
  });
  const body: Record<string, unknown> = { result: { result: true } };
  if (VIEW_SELECTORS.has(call.data.slice(0, 8))) {
    // java-tron runs view functions as constant calls even on this path.
    const result = simulate(state, call.owner, call.contract, call.data, call.callValue);
    body.energy_used = i64(result?.energy ?? 0);
    body.constant_result = [result?.returnData ?? ''];
  }
  body.transaction = renderUnsigned(tx);
  return body;
}

function triggerConstantContract(chain: Chain, params: Params, view: View): unknown {
  const call = readCall(params, false);
  const result = simulate(chain.state(view), call.owner, call.contract, call.data, call.callValue);
  if (result === undefined) return noContract();
  const reverted = result.status === 'REVERT';
  const tx = chain.build(call);
  return {
    result: reverted ? { result: true, message: utf8Hex('REVERT opcode executed') } : { result: true },
    energy_used: i64(result.energy),
    constant_result: [result.returnData],
    transaction: { ret: [reverted ? { ret: 'FAILED' } : {}], ...renderUnsigned(tx) },
  };
}

function estimateEnergy(chain: Chain, params: Params, view: View): unknown {
  const call = readCall(params, true);
  const result = simulate(chain.state(view), call.owner, call.contract, call.data, call.callValue);
  if (result === undefined) return noContract();
  if (result.status === 'REVERT') {
    return { result: { code: 'CONTRACT_EXE_ERROR', message: utf8Hex('REVERT opcode executed') } };
  }
  return { result: { result: true }, energy_required: i64(result.energy) };
}

function broadcastTransaction(chain: Chain, params: Params): unknown {
  let txid: string | undefined;
  try {
    const raw = parseRawData(params.raw_data);
    const signatures = Array.isArray(params.signature) ? params.signature.map(normalizeSignature) : [];
    const tx = sealOrRefuse(raw, signatures);
    txid = tx.txID;
    chain.admit(tx, { txID: params.txID, rawDataHex: params.raw_data_hex });
    return { result: true, txid };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { result: false, code: error.code, message: utf8Hex(error.message), txid };
  }
}

function sealOrRefuse(raw: ReturnType<typeof parseRawData>, signatures: string[]): ReturnType<typeof seal> {
  try {
    return seal(raw, signatures);
  } catch (error) {
    throw new Refusal('OTHER_ERROR', `Error: ${(error as Error).message}`);
  }
}

function addressOr(value: unknown, message: string): HexAddress {
  try {
    return parseHexAddress(value, 'address');
  } catch {
    throw contractValidateServletError(message);
  }
}

function flag(value: unknown): boolean {
  return value === true || value === 'true';
}
