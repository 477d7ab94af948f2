import { type Abi, type Hex, parseAbi } from 'viem';
import noReturnTokenJson from './contracts/NoReturnToken.json' with { type: 'json' };
import testTokenJson from './contracts/TestToken.json' with { type: 'json' };

/**
 * Compiled test tokens, loaded from the JSON committed in src/devnet/evm/contracts/ (rebuilt by
 * scripts/build-fixtures.ts). Runtime code reads these and never loads solc.
 */
export interface TokenArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
}

/** ABI of `TestToken`: a standard ERC-20 whose transfer/transferFrom/approve return bool. */
export const testTokenAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function owner() view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function blocked(address) view returns (bool)',
  'function mint(address to, uint256 amount)',
  'function setBlocked(address account, bool isBlocked)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event BlockedSet(address indexed account, bool isBlocked)',
]);

/**
 * ABI of `NoReturnToken` (USDT on Ethereum style): transfer/transferFrom/approve return nothing.
 * Use it, not {@link testTokenAbi}, to simulate calls on such a token: decoding a bool from empty return
 * data fails.
 */
export const noReturnTokenAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function owner() view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function blocked(address) view returns (bool)',
  'function mint(address to, uint256 amount)',
  'function setBlocked(address account, bool isBlocked)',
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event BlockedSet(address indexed account, bool isBlocked)',
]);

/** Compiled `TestToken` (abi + creation bytecode). */
export const testTokenArtifact: TokenArtifact = {
  contractName: testTokenJson.contractName,
  abi: testTokenJson.abi as Abi,
  bytecode: testTokenJson.bytecode as Hex,
};

/** Compiled `NoReturnToken` (abi + creation bytecode). */
export const noReturnTokenArtifact: TokenArtifact = {
  contractName: noReturnTokenJson.contractName,
  abi: noReturnTokenJson.abi as Abi,
  bytecode: noReturnTokenJson.bytecode as Hex,
};
