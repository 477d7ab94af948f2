import { bcs } from '@mysten/sui/bcs';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { toBase58 } from '@mysten/sui/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenSpec } from '../../src/chains/port.ts';
import { payoutFeeCeiling } from '../../src/chains/sui/actions/fee-estimate.ts';
import { SCAN_STEP } from '../../src/chains/sui/actions/scan.ts';
import { createSuiAdapter } from '../../src/chains/sui/adapter.ts';
import { decodeRaw, ownedInputs } from '../../src/chains/sui/payout-tx.ts';
import type { ActiveChain } from '../../src/config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../src/devnet/sui/index.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { TEST_MNEMONIC } from '../helpers/harness.ts';
import { spendOfSigned } from '../helpers/spends.ts';
import { SUI, USDC } from '../helpers/sui-chain.ts';

let node: FakeSuiNode;
const hot = createKeyRing(TEST_MNEMONIC).hotWallet('SUI');
const receiver = `0x${'22'.repeat(32)}`;

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
});
afterAll(() => node?.close());

function settings(over: Partial<ActiveChain> = {}): ActiveChain {
  return {
    chain: 'SUI',
    enabled: true,
    rpc: [node.url],
    chainId: undefined,
    tokens: [
      { symbol: 'USDC', contract: node.usdcType, decimals: 6 },
      { symbol: 'SUI', contract: null, decimals: 9 },
    ],
    explorerTx: '',
    confirmations: 'finalized',
    confirmationFloor: 0,
    pollIntervalMs: 100,
    maxLogRange: 2000,
    eip1559: false,
    ...over,
  };
}

const adapter = (over: Partial<ActiveChain> = {}) => createSuiAdapter(settings(over), silentLogger());
const usdc = (): TokenSpec => ({ symbol: 'USDC', contract: node.usdcType, decimals: 6 });
const sui: TokenSpec = { symbol: 'SUI', contract: null, decimals: 9 };

describe('SuiAdapter: connecting', () => {
  it('accepts a node that knows every configured coin type with its decimals', async () => {
    await expect(adapter().connect()).resolves.toBeUndefined();
  });

  it('refuses (ChainError wrong_network) a node that does not know the configured USDC: another network', async () => {
    const mainnetUsdc = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
    const a = adapter({ tokens: [{ symbol: 'USDC', contract: mainnetUsdc, decimals: 6 }] });
    await expect(a.connect()).rejects.toMatchObject({ name: 'ChainError', code: 'wrong_network' });
    await expect(a.connect()).rejects.toThrow(/does not know the coin type/);
  });

  it('refuses a coin type whose decimals differ from the configuration', async () => {
    const a = adapter({ tokens: [{ symbol: 'USDC', contract: node.usdcType, decimals: 9 }] });
    await expect(a.connect()).rejects.toThrow(/has 6 decimals on the RPC/);
  });
});

describe('SuiAdapter: heights and checkpoints', () => {
  it('calls the latest checkpoint final under `finalized`, and head − N + 1 under N confirmations', async () => {
    node.checkpoint();
    const head = Number(node.height());
    expect(await adapter().heads()).toEqual({ head, final: head });
    expect(await adapter({ confirmations: 3 }).heads()).toEqual({ head, final: head - 2 });
  });

  it('reads a checkpoint as a block (sequence number, digest, unix seconds) and null past the head', async () => {
    const sealed = node.checkpoint();
    const block = await adapter().block(Number(sealed.sequenceNumber));
    expect(block).toEqual({
      number: Number(sealed.sequenceNumber),
      hash: sealed.digest,
      timestamp: expect.any(Number),
    });
    expect(Math.abs(block!.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(await adapter().block(Number(node.height()) + 5)).toBeNull();
    expect(adapter().scanStep()).toBe(SCAN_STEP);
  });
});

describe('SuiAdapter: scanning checkpoints', () => {
  it('finds coin and address-balance deposits to watched addresses, keyed by owner and coin type', async () => {
    const a = new Ed25519Keypair().toSuiAddress();
    const b = new Ed25519Keypair().toSuiAddress();
    const stranger = new Ed25519Keypair().toSuiAddress();
    const from = Number(node.height()) + 1;
    const coin = await node.mint(node.usdcType, a, 5n * USDC);
    const balance = await node.mint(node.usdcType, b, 7n * USDC, { asAddressBalance: true });
    const native = await node.fundSui(a, 2n * SUI);
    await node.mint(node.usdcType, stranger, 9n * USDC);
    const first = node.checkpoint();
    const fourth = await node.mint(node.usdcType, a, 1n * USDC);
    const second = node.checkpoint();

    const found = await adapter().scan(from, Number(second.sequenceNumber), new Set([a, b]), [usdc(), sui]);
    const view = found.map((t) => [
      t.txid,
      t.eventKey,
      t.to,
      t.contract,
      t.amountBase,
      t.blockNum,
      t.success,
    ]);
    const n1 = Number(first.sequenceNumber);
    const n2 = Number(second.sequenceNumber);
    expect(view).toEqual(
      expect.arrayContaining([
        [coin.digest, `${a}:${node.usdcType}`, a, node.usdcType, 5n * USDC, n1, true],
        [balance.digest, `${b}:${node.usdcType}`, b, node.usdcType, 7n * USDC, n1, true],
        [native.digest, `${a}:${node.suiType}`, a, null, 2n * SUI, n1, true],
        [fourth.digest, `${a}:${node.usdcType}`, a, node.usdcType, USDC, n2, true],
      ]),
    );
    expect(found).toHaveLength(4);
    expect(found.every((t) => t.from === node.faucetAddress)).toBe(true);
    expect(found.find((t) => t.blockNum === n1)).toMatchObject({ blockHash: first.digest });

    // only the tokens asked for, and nothing when no address is watched
    const onlySui = await adapter().scan(from, n2, new Set([a, b]), [sui]);
    expect(onlySui.map((t) => t.txid)).toEqual([native.digest]);
    expect(await adapter().scan(from, n2, new Set(), [usdc(), sui])).toEqual([]);
  });

  it('reports the configured spelling of a coin type as the contract, whatever spelling the node prints', async () => {
    const a = new Ed25519Keypair().toSuiAddress();
    const [pkg, rest] = [node.usdcType.slice(0, 66), node.usdcType.slice(66)];
    const shouty = `0x${pkg.slice(2).toUpperCase()}${rest}`;
    const from = Number(node.height()) + 1;
    await node.mint(node.usdcType, a, USDC);
    await node.fundSui(a, SUI);
    const to = Number(node.checkpoint().sequenceNumber);
    const spelled = [
      { symbol: 'USDC', contract: shouty, decimals: 6 },
      { symbol: 'SUI', contract: '0x2::sui::SUI', decimals: 9 },
    ];
    const found = await adapter().scan(from, to, new Set([a]), spelled);
    expect(found.map((t) => t.contract).sort()).toEqual(['0x2::sui::SUI', shouty]);
    const native = await adapter().scan(from, to, new Set([a]), [sui]);
    expect(native.map((t) => [t.contract, t.amountBase])).toEqual([[null, SUI]]);
  });

  it('throws rather than skip a checkpoint the node does not have', async () => {
    const head = Number(node.height());
    await expect(adapter().scan(head, head + 3, new Set([receiver]), [usdc()])).rejects.toThrow(
      /no checkpoint/,
    );
  });
});

describe('SuiAdapter: payouts', () => {
  it('estimates a fee no smaller than the budget it then signs, and never puts a coin version in two sent transactions', async () => {
    await node.fundSui(hot.address, 5n * SUI); // one SUI coin
    await node.mint(node.usdcType, hot.address, 50n * USDC);
    node.checkpoint();
    const a = adapter();
    const estimate = await a.payoutFeeEstimate(hot.address, receiver, usdc(), 10n * USDC);
    expect(estimate).toBe(payoutFeeCeiling(1000n));
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, nonce: null };
    const first = await a.signPayout({ ...base, token: usdc(), amountBase: 10n * USDC });
    const budget = BigInt(bcs.TransactionData.parse(decodeRaw(first.raw).bytes).V1!.gasData.budget);
    expect(budget).toBeLessThanOrEqual(estimate);
    expect(first).toMatchObject({ nonce: null, validUntil: null });
    expect(first.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    // the first is sent but the node does not answer: it may still execute, so a second payout,
    // which would need the same SUI coin version, is not signed (no equivocation)
    node.fail({ mode: 'unavailable', methods: ['ExecuteTransaction'] });
    const impatient = createSuiAdapter(settings(), silentLogger(), { baseDelayMs: 1 });
    await expect(impatient.broadcast(first)).rejects.toThrow(/UNAVAILABLE/);
    node.heal();
    await expect(impatient.signPayout({ ...base, token: usdc(), amountBase: USDC })).rejects.toThrow(
      /held by a payout in flight/,
    );
    expect((await impatient.broadcast(first)).ok).toBe(true);
    const second = await impatient.signPayout({ ...base, token: usdc(), amountBase: USDC });
    const used = new Set(ownedInputs(decodeRaw(first.raw).bytes).map((r) => `${r.objectId}@${r.version}`));
    expect(ownedInputs(decodeRaw(second.raw).bytes).some((r) => used.has(`${r.objectId}@${r.version}`))).toBe(
      false,
    );
    expect((await impatient.broadcast(second)).ok).toBe(true);
    node.checkpoint();
  });

  it('refuses for good (ChainError payout_rejected) a token amount the wallet does not hold, and a wrong key', async () => {
    const a = adapter();
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, nonce: null };
    await expect(a.signPayout({ ...base, token: usdc(), amountBase: 10_000n * USDC })).rejects.toMatchObject({
      name: 'ChainError',
      code: 'payout_rejected',
    });
    const other = createKeyRing(TEST_MNEMONIC).depositKey('sui', 0);
    await expect(
      a.signPayout({ ...base, privateKey: other, token: usdc(), amountBase: USDC }),
    ).rejects.toThrow(/does not match the hot wallet/);
  });

  it('reports a digest the node never saw as unknown, and proves nothing about bytes it cannot read', async () => {
    const digest = toBase58(new Uint8Array(32).fill(9));
    expect(await adapter().lookup(digest)).toEqual({ state: 'unknown' });
    const unreadable = { txHash: digest, raw: 'not a transaction', nonce: null, validUntil: null };
    expect(
      await adapter().judgeSlot({ from: hot.address, attempts: [unreadable], recorded: [] }),
    ).toMatchObject({
      state: 'open',
    });
  });

  it('answers a broadcast of bytes whose inputs moved on as permanent, and a mined lookup with its checkpoint', async () => {
    const a = adapter();
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, nonce: null };
    const signed = await a.signPayout({ ...base, token: sui, amountBase: 1000n });
    const b = adapter(); // another process: signs the same coin version (it never saw the first)
    const rival = await b.signPayout({ ...base, token: sui, amountBase: 2000n });
    expect((await b.broadcast(rival)).ok).toBe(true);
    const refused = await a.broadcast(signed);
    expect(refused).toMatchObject({ ok: false, permanent: true });
    const attempts = [spendOfSigned(signed)];
    // the coin was consumed by a transaction Kassa recorded: provably dead
    expect(
      await a.judgeSlot({ from: hot.address, attempts, recorded: [spendOfSigned(rival)] }),
    ).toMatchObject({
      state: 'dead',
      proof: expect.stringContaining(`consumed by Kassa's transaction ${rival.txHash}`),
    });
    // without that record, whoever consumed it is unknown: the payout would be held
    expect(await a.judgeSlot({ from: hot.address, attempts, recorded: [] })).toMatchObject({
      state: 'unexplained',
    });
    // and the one that executed is, of course, landed
    expect(
      await b.judgeSlot({ from: hot.address, attempts: [spendOfSigned(rival)], recorded: attempts }),
    ).toEqual({ state: 'landed', txHash: rival.txHash });
    expect(await b.lookup(rival.txHash)).toEqual({ state: 'pending' });
    const sealed = node.checkpoint();
    expect(await b.lookup(rival.txHash)).toEqual({
      state: 'mined',
      blockNum: Number(sealed.sequenceNumber),
      blockHash: sealed.digest,
      timestamp: expect.any(Number),
      success: true,
    });
  });
});
