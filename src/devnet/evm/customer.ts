import {
  type Address,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  parseAbi,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * A customer paying on an EVM devnet from a funded key: an ERC-20 `transfer` (never decoding a
 * return value, so no-return tokens work) or a native transfer. Resolves once the transaction is
 * mined, with its hash.
 */
export async function payOnEvm(input: {
  url: string;
  chainId: number;
  privateKey: Hex;
  token: Address | null;
  to: Address;
  amount: bigint;
}): Promise<Hex> {
  const account = privateKeyToAccount(input.privateKey);
  const chain = defineChain({
    id: input.chainId,
    name: `devnet ${input.chainId}`,
    nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [input.url] } },
  });
  const client = createWalletClient({ account, chain, transport: http(input.url, { retryCount: 0 }) }).extend(
    publicActions,
  );
  const hash = input.token
    ? await client.sendTransaction({
        to: input.token,
        data: encodeFunctionData({
          abi: parseAbi(['function transfer(address to, uint256 value)']),
          functionName: 'transfer',
          args: [input.to, input.amount],
        }),
      })
    : await client.sendTransaction({ to: input.to, value: input.amount });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== 'success') throw new Error(`the payment ${hash} reverted`);
  return hash;
}
