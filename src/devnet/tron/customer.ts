import { TronWeb } from 'tronweb';

/**
 * A customer paying on a TRON node (the fake one in the sandbox) from a funded key: a TRC-20
 * `transfer` or a TRX transfer, built, signed and broadcast with tronweb. Resolves with the txID
 * once the node accepted it.
 */
export async function payOnTron(input: {
  url: string;
  privateKey: string;
  contract: string | null;
  to: string;
  amount: bigint;
}): Promise<string> {
  const privateKey = input.privateKey.replace(/^0x/, '');
  const tronWeb = new TronWeb({ fullHost: input.url, privateKey });
  const from = tronWeb.address.fromPrivateKey(privateKey);
  if (!from) throw new Error('invalid TRON private key');
  const transaction = input.contract
    ? (
        await tronWeb.transactionBuilder.triggerSmartContract(
          input.contract,
          'transfer(address,uint256)',
          { feeLimit: 100_000_000 },
          [
            { type: 'address', value: input.to },
            { type: 'uint256', value: input.amount.toString() },
          ],
          from,
        )
      ).transaction
    : await tronWeb.transactionBuilder.sendTrx(input.to, Number(input.amount), from);
  const signed = await tronWeb.trx.sign(transaction, privateKey);
  const result = await tronWeb.trx.sendRawTransaction(signed);
  if (!result.result) throw new Error(`the TRON node refused the payment: ${JSON.stringify(result)}`);
  return signed.txID;
}

/** The base58 address of a TRON private key. */
export function tronAddressOf(privateKey: string): string {
  const address = TronWeb.address.fromPrivateKey(privateKey.replace(/^0x/, ''));
  if (!address) throw new Error('invalid TRON private key');
  return address;
}
