import { parseAbi, parseAbiItem } from 'viem';

/** The ERC-20 Transfer event, the same on every chain and token in scope. */
export const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/**
 * transfer/balanceOf without declared outputs for `transfer`: USDT on Ethereum returns nothing, and
 * an ABI that expects a bool would fail to decode its (successful) result. Success is judged from
 * the receipt status and the Transfer log, never from a return value.
 */
export const ERC20_ABI = parseAbi([
  'function transfer(address to, uint256 value)',
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);
