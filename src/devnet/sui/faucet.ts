/**
 * Mints and SUI funding as real transactions from the faucet address, built with the SDK's
 * `Transaction` and signed by the faucet key: SUI is split from the faucet's gas coin, USDC is
 * minted with its TreasuryCap (`0x2::coin::mint`); the coin is then transferred to the owner, or,
 * for an address-balance deposit, sent with `0x2::coin::send_funds` (SIP-58, no coin object).
 * Faucet transactions run one at a time, since they all spend the faucet's gas coin.
 */
import { Inputs, Transaction, type TransactionObjectArgument } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { FakeSuiChain } from './chain.ts';
import { normalizeType, SUI_TYPE } from './coin-types.ts';
import { GrpcCode, GrpcError } from './grpc-status.ts';
import { ENUMS } from './proto.ts';

/** Gas budget of faucet transactions, in MIST. */
const FAUCET_BUDGET = 50_000_000n;

/** What a mint produced. */
export interface MintResult {
  /** Digest of the faucet transaction; it lands in the next checkpoint. */
  digest: string;
  /** The new coin object, or undefined for an address-balance deposit. */
  coinObjectId: string | undefined;
}

/** Mint options. */
export interface MintOptions {
  /** Credit the owner's address balance (SIP-58) instead of creating a coin object. */
  asAddressBalance?: boolean;
}

/** Serialises faucet transactions of one chain. */
export class Faucet {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly chain: FakeSuiChain) {}

  /**
   * Credits `amount` base units of `coinType` to `owner` with a faucet transaction. Throws
   * INVALID_ARGUMENT for an unknown coin type, a non-positive amount or a bad address.
   */
  mint(coinType: string, owner: string, amount: bigint, options: MintOptions = {}): Promise<MintResult> {
    const run = this.queue.then(() => this.mintNow(coinType, owner, amount, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async mintNow(
    coinType: string,
    owner: string,
    amount: bigint,
    options: MintOptions,
  ): Promise<MintResult> {
    const type = normalizeType(coinType);
    if (!this.chain.coins.has(type))
      throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `unknown coin type ${coinType}`);
    if (amount <= 0n) throw new GrpcError(GrpcCode.INVALID_ARGUMENT, 'amount must be positive');
    if (!/^(0x)?[0-9a-fA-F]{1,64}$/.test(owner))
      throw new GrpcError(GrpcCode.INVALID_ARGUMENT, `invalid address ${owner}`);
    const recipient = normalizeSuiAddress(owner);
    const { faucet, store, params } = this.chain;
    const gas = store.get(faucet.gasCoinId);
    if (!gas) throw new Error('faucet gas coin is gone');

    const tx = new Transaction();
    tx.setSender(faucet.address);
    tx.setGasPrice(params.referenceGasPrice);
    tx.setGasBudget(FAUCET_BUDGET);
    tx.setGasPayment([{ objectId: gas.id, version: gas.version.toString(), digest: gas.digest }]);
    let coin: TransactionObjectArgument;
    if (type === SUI_TYPE) {
      [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(amount)]);
    } else {
      const cap = store.get(faucet.treasuryCaps.get(type) ?? '');
      if (!cap) throw new GrpcError(GrpcCode.FAILED_PRECONDITION, `no treasury cap for ${type}`);
      coin = tx.moveCall({
        target: '0x2::coin::mint',
        typeArguments: [type],
        arguments: [
          tx.object(
            Inputs.ObjectRef({ objectId: cap.id, version: cap.version.toString(), digest: cap.digest }),
          ),
          tx.pure.u64(amount),
        ],
      });
    }
    if (options.asAddressBalance) {
      tx.moveCall({
        target: '0x2::coin::send_funds',
        typeArguments: [type],
        arguments: [coin, tx.pure.address(recipient)],
      });
    } else {
      tx.transferObjects([coin], tx.pure.address(recipient));
    }
    const bytes = await tx.build();
    const { signature } = await faucet.keypair.signTransaction(bytes);
    const { record } = this.chain.executeTrusted(bytes, [signature]);
    const effects = record.executed.effects;
    if (!effects?.status?.success) {
      throw new GrpcError(
        GrpcCode.INTERNAL,
        `faucet transaction failed: ${effects?.status?.error?.description}`,
      );
    }
    const created = effects.changedObjects.find((c) => c.idOperation === ENUMS.idCreated);
    return { digest: record.digest, coinObjectId: created?.objectId };
  }
}
