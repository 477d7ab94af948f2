import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { toHex41 } from './address.ts';
import { buildTransaction, encodeRawData, signTransaction } from './transaction.ts';

/** A reference block id carrying the ref_block_bytes/ref_block_hash of an example (bytes 6..7 and 8..15). */
const refId = (bytes: string, hash: string) => `000000000000${bytes}${hash}${'0'.repeat(32)}`;

describe('TRON transactions built locally', () => {
  it('encodes the official createtransaction example byte for byte (raw_data_hex and txID)', () => {
    const tx = buildTransaction(
      {
        type: 'TransferContract',
        owner: '41dd791d6b49e190062d650e6a23c575510d35f2f9',
        to: '4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a',
        amountSun: 1_000_000n,
      },
      { refBlockId: refId('2927', '939ece39d08a7abe'), expiration: 1777447527000, timestamp: 1777447470038 },
      0n,
    );
    expect(tx.raw_data_hex).toBe(
      '0a0229272208939ece39d08a7abe40d8c483c1dd335a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a1541dd791d6b49e190062d650e6a23c575510d35f2f912154192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a18c0843d70d68780c1dd33',
    );
    expect(tx.txID).toBe('6303c7639f591407ef9f34a7ac8c9c9a21151f5a6af21924502515734fc267ab');
    expect(tx.txID).toBe(Buffer.from(sha256(Buffer.from(tx.raw_data_hex, 'hex'))).toString('hex'));
  });

  it('encodes the official triggersmartcontract example byte for byte, fee_limit included', () => {
    const tx = buildTransaction(
      {
        type: 'TriggerSmartContract',
        owner: '41dd791d6b49e190062d650e6a23c575510d35f2f9',
        contract: toHex41('TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'),
        data: 'a9059cbb000000000000000000000000088a2bfcb1c7271029fd69a66859d555608958840000000000000000000000000000000000000000000000000000000000000064',
      },
      { refBlockId: refId('28c3', 'ce6d340282788569'), expiration: 1777447227000, timestamp: 1777447168009 },
      100_000_000n,
    );
    expect(tx.txID).toBe('8c621a0dc9bd4d405b20d0a43143955b9f546f98bbfde1aec295a65b0f925629');
    expect(tx.raw_data_hex.endsWith('900180c2d72f')).toBe(true);
  });

  it('signs the txID with the key: r‖s‖v, v = 27 + recovery id, recovering to the owner', () => {
    const key = Buffer.alloc(32, 0x11);
    const tx = buildTransaction(
      {
        type: 'TransferContract',
        owner: toHex41('TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre'),
        to: toHex41('TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx'),
        amountSun: 5n,
      },
      { refBlockId: refId('0001', '0123456789abcdef'), expiration: 2_000_000_000_000, timestamp: 1 },
      0n,
    );
    const signed = signTransaction(tx, key);
    const signature = signed.signature?.[0] ?? '';
    expect(signature).toMatch(/^[0-9a-f]{128}(1b|1c)$/);
    const recovered = secp256k1.Signature.fromHex(signature.slice(0, 128), 'compact')
      .addRecoveryBit(Number.parseInt(signature.slice(128), 16) - 27)
      .recoverPublicKey(Buffer.from(tx.txID, 'hex'))
      .toHex(false);
    expect(recovered).toBe(Buffer.from(secp256k1.getPublicKey(key, false)).toString('hex'));
  });

  it('refuses to sign a transaction whose raw_data does not hash to its txID', () => {
    const tx = buildTransaction(
      {
        type: 'TransferContract',
        owner: toHex41('TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre'),
        to: toHex41('TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx'),
        amountSun: 5n,
      },
      { refBlockId: refId('0001', '0123456789abcdef'), expiration: 2_000_000_000_000, timestamp: 1 },
      0n,
    );
    const tampered = structuredClone(tx);
    (
      tampered.raw_data.contract as { parameter: { value: { amount: number } } }[]
    )[0]!.parameter.value.amount = 6;
    expect(() => signTransaction(tampered, Buffer.alloc(32, 0x11))).toThrow(/txID does not match/);
    expect(encodeRawData(tampered.raw_data).txID).not.toBe(tx.txID);
  });
});
