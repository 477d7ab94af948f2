import { type Address, type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SignedPayout } from '../../port.ts';
import type { EvmContext } from '../context.ts';
import type { FeesPerGas } from './fees.ts';

/** A transaction as Kassa signs it: a nonce, a gas limit and one call. */
export interface EvmCall {
  nonce: number;
  gas: bigint;
  to: Address;
  value: bigint;
  data: Hex | undefined;
}

/** Signs `tx` with `privateKey` at `fees` (legacy or EIP-1559) for the context's chain id. */
export async function signCall(
  ctx: EvmContext,
  args: { privateKey: Buffer; tx: EvmCall; fees: FeesPerGas },
): Promise<SignedPayout> {
  const { tx, fees } = args;
  const account = privateKeyToAccount(`0x${args.privateKey.toString('hex')}`);
  const serialized = await account.signTransaction({
    chainId: ctx.viemChain.id,
    ...tx,
    ...('gasPrice' in fees ? { type: 'legacy', gasPrice: fees.gasPrice } : { type: 'eip1559', ...fees }),
  } as Parameters<typeof account.signTransaction>[0]);
  return {
    txHash: keccak256(serialized),
    raw: serialized,
    nonce: tx.nonce,
    validUntil: null,
    slot: `nonce ${tx.nonce}`,
    maxFeePerGas: 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas,
    maxPriorityFeePerGas: 'gasPrice' in fees ? null : fees.maxPriorityFeePerGas,
  };
}
