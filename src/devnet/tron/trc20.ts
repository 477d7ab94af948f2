import { addressWord, evmHex, type HexAddress, selectorOf, uintWord, utf8Hex } from './encoding.ts';
import { TRC20_ENERGY } from './params.ts';

/** A TRC-20 token implemented natively by the fake node (no EVM). Balances in base units. */
export interface Token {
  readonly address: HexAddress;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** deployer, shown as `origin_address` by getcontract */
  readonly owner: HexAddress;
  /** mimic mainnet USDT: `transfer` returns 32 zero bytes (false) even when it succeeds */
  readonly returnsFalse: boolean;
  readonly createdAt: number;
  totalSupply: bigint;
  readonly balances: Map<HexAddress, bigint>;
  /** keyed `${owner}:${spender}` */
  readonly allowances: Map<string, bigint>;
}

/** An event log in TransactionInfo form: address without `41`, topics and data hex without `0x`. */
export interface Log {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
}

/** One storage write of a call, applied only when the call completes within its energy limit. */
export type Write =
  | { readonly kind: 'balance'; readonly holder: HexAddress; readonly value: bigint }
  | { readonly kind: 'allowance'; readonly key: string; readonly value: bigint };

/** What a call would do: its result, its energy, its writes and logs (nothing applied yet). */
export interface CallOutcome {
  readonly status: 'SUCCESS' | 'REVERT';
  readonly returnData: string;
  readonly energy: number;
  readonly writes: readonly Write[];
  readonly logs: readonly Log[];
}

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** keccak256("Approval(address,address,uint256)") */
export const APPROVAL_TOPIC = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';

const SELECTOR = {
  name: selectorOf('name()'),
  symbol: selectorOf('symbol()'),
  decimals: selectorOf('decimals()'),
  totalSupply: selectorOf('totalSupply()'),
  balanceOf: selectorOf('balanceOf(address)'),
  allowance: selectorOf('allowance(address,address)'),
  transfer: selectorOf('transfer(address,uint256)'),
  approve: selectorOf('approve(address,uint256)'),
  transferFrom: selectorOf('transferFrom(address,address,uint256)'),
} as const;

/** Selectors of the functions that only read (java-tron runs them as constant calls). */
export const VIEW_SELECTORS: ReadonlySet<string> = new Set([
  SELECTOR.name,
  SELECTOR.symbol,
  SELECTOR.decimals,
  SELECTOR.totalSupply,
  SELECTOR.balanceOf,
  SELECTOR.allowance,
]);

/** ABI-encoded `Error(string)`, the return data of a Solidity `require(…, reason)`. */
export function errorData(reason: string): string {
  const text = utf8Hex(reason);
  const padded = text.padEnd(Math.ceil(text.length / 64) * 64, '0');
  return `08c379a0${uintWord(32n)}${uintWord(BigInt(text.length / 2))}${padded}`;
}

/** Balance of `holder` in base units (0 for strangers). */
export function balanceOf(token: Token, holder: HexAddress): bigint {
  return token.balances.get(holder) ?? 0n;
}

/**
 * Executes `data` (selector + ABI args) as `caller` against the token without changing it.
 * Addresses are read from the low 20 bytes of their word (wallets put `41` in the padding, A.4).
 * Unknown selectors, short calldata, call value and overdrafts revert.
 */
export function callToken(token: Token, caller: HexAddress, data: string, callValue: bigint): CallOutcome {
  const selector = data.slice(0, 8);
  const args = data.slice(8);
  if (callValue !== 0n) return revert('');
  const word = (index: number): string | undefined => {
    const text = args.slice(index * 64, index * 64 + 64);
    return text.length === 64 ? text : undefined;
  };
  const address = (index: number): HexAddress | undefined => {
    const text = word(index);
    return text === undefined ? undefined : `41${text.slice(24)}`;
  };
  const uint = (index: number): bigint | undefined => {
    const text = word(index);
    return text === undefined ? undefined : BigInt(`0x${text}`);
  };

  switch (selector) {
    case SELECTOR.name:
      return view(encodeString(token.name), TRC20_ENERGY.name);
    case SELECTOR.symbol:
      return view(encodeString(token.symbol), TRC20_ENERGY.symbol);
    case SELECTOR.decimals:
      return view(uintWord(BigInt(token.decimals)), TRC20_ENERGY.decimals);
    case SELECTOR.totalSupply:
      return view(uintWord(token.totalSupply), TRC20_ENERGY.totalSupply);
    case SELECTOR.balanceOf: {
      const holder = address(0);
      return holder === undefined
        ? revert('')
        : view(uintWord(balanceOf(token, holder)), TRC20_ENERGY.balanceOf);
    }
    case SELECTOR.allowance: {
      const owner = address(0);
      const spender = address(1);
      if (owner === undefined || spender === undefined) return revert('');
      return view(uintWord(token.allowances.get(`${owner}:${spender}`) ?? 0n), TRC20_ENERGY.allowance);
    }
    case SELECTOR.transfer: {
      const to = address(0);
      const amount = uint(1);
      if (to === undefined || amount === undefined) return revert('');
      return move(token, caller, to, amount, 0, []);
    }
    case SELECTOR.transferFrom: {
      const from = address(0);
      const to = address(1);
      const amount = uint(2);
      if (from === undefined || to === undefined || amount === undefined) return revert('');
      const key = `${from}:${caller}`;
      const allowed = token.allowances.get(key) ?? 0n;
      if (allowed < amount) return revert('TRC20: insufficient allowance');
      return move(token, from, to, amount, TRC20_ENERGY.transferFromExtra, [
        { kind: 'allowance', key, value: allowed - amount },
      ]);
    }
    case SELECTOR.approve: {
      const spender = address(0);
      const amount = uint(1);
      if (spender === undefined || amount === undefined) return revert('');
      return {
        status: 'SUCCESS',
        returnData: uintWord(1n),
        energy: TRC20_ENERGY.approve,
        writes: [{ kind: 'allowance', key: `${caller}:${spender}`, value: amount }],
        logs: [
          {
            address: evmHex(token.address),
            topics: [APPROVAL_TOPIC, addressWord(caller), addressWord(spender)],
            data: uintWord(amount),
          },
        ],
      };
    }
    default:
      return revert('');
  }
}

/** Applies the writes of a completed call to the token. */
export function applyWrites(token: Token, writes: readonly Write[]): void {
  for (const write of writes) {
    if (write.kind === 'balance') {
      if (write.value === 0n) token.balances.delete(write.holder);
      else token.balances.set(write.holder, write.value);
    } else {
      token.allowances.set(write.key, write.value);
    }
  }
}

function move(
  token: Token,
  from: HexAddress,
  to: HexAddress,
  amount: bigint,
  extraEnergy: number,
  extraWrites: readonly Write[],
): CallOutcome {
  const fromBalance = balanceOf(token, from);
  if (fromBalance < amount) return revert('TRC20: transfer amount exceeds balance');
  const toBalance = balanceOf(token, to);
  const writes: Write[] =
    from === to
      ? []
      : [
          { kind: 'balance', holder: from, value: fromBalance - amount },
          { kind: 'balance', holder: to, value: toBalance + amount },
        ];
  const energy =
    (toBalance === 0n ? TRC20_ENERGY.transferToNewHolder : TRC20_ENERGY.transferToHolder) + extraEnergy;
  return {
    status: 'SUCCESS',
    returnData: uintWord(token.returnsFalse ? 0n : 1n),
    energy,
    writes: [...writes, ...extraWrites],
    logs: [
      {
        address: evmHex(token.address),
        topics: [TRANSFER_TOPIC, addressWord(from), addressWord(to)],
        data: uintWord(amount),
      },
    ],
  };
}

function view(returnData: string, energy: number): CallOutcome {
  return { status: 'SUCCESS', returnData, energy, writes: [], logs: [] };
}

function revert(reason: string): CallOutcome {
  return {
    status: 'REVERT',
    returnData: reason === '' ? '' : errorData(reason),
    energy: TRC20_ENERGY.revert,
    writes: [],
    logs: [],
  };
}

function encodeString(text: string): string {
  const hex = utf8Hex(text);
  const padded = hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
  return `${uintWord(32n)}${uintWord(BigInt(hex.length / 2))}${padded}`;
}

/** The token's ABI in java-tron's getcontract form (capitalised enum names, `constant` on views). */
export function tokenAbi(): Record<string, unknown>[] {
  const fn = (
    name: string,
    inputs: [string, string][],
    outputs: string[],
    mutability: 'View' | 'Nonpayable',
  ): Record<string, unknown> => ({
    outputs: outputs.length === 0 ? undefined : outputs.map((type) => ({ type })),
    constant: mutability === 'View' ? true : undefined,
    inputs: inputs.length === 0 ? undefined : inputs.map(([inputName, type]) => ({ name: inputName, type })),
    name,
    stateMutability: mutability,
    type: 'Function',
  });
  const event = (name: string, inputs: [string, string, boolean][]): Record<string, unknown> => ({
    inputs: inputs.map(([inputName, type, indexed]) => ({
      indexed: indexed ? true : undefined,
      name: inputName,
      type,
    })),
    name,
    type: 'Event',
  });
  return [
    fn('name', [], ['string'], 'View'),
    fn('symbol', [], ['string'], 'View'),
    fn('decimals', [], ['uint8'], 'View'),
    fn('totalSupply', [], ['uint256'], 'View'),
    fn('balanceOf', [['who', 'address']], ['uint256'], 'View'),
    fn(
      'allowance',
      [
        ['owner', 'address'],
        ['spender', 'address'],
      ],
      ['uint256'],
      'View',
    ),
    fn(
      'transfer',
      [
        ['_to', 'address'],
        ['_value', 'uint256'],
      ],
      ['bool'],
      'Nonpayable',
    ),
    fn(
      'approve',
      [
        ['_spender', 'address'],
        ['_value', 'uint256'],
      ],
      ['bool'],
      'Nonpayable',
    ),
    fn(
      'transferFrom',
      [
        ['_from', 'address'],
        ['_to', 'address'],
        ['_value', 'uint256'],
      ],
      ['bool'],
      'Nonpayable',
    ),
    event('Transfer', [
      ['from', 'address', true],
      ['to', 'address', true],
      ['value', 'uint256', false],
    ]),
    event('Approval', [
      ['owner', 'address', true],
      ['spender', 'address', true],
      ['value', 'uint256', false],
    ]),
  ];
}
