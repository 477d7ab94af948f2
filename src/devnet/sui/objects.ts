/**
 * The objects a fake chain holds (coins and treasury caps), their BCS and digests, and the per-address
 * balances of SIP-58 (funds held by an address with no coin object).
 *
 * An object's BCS follows sui-types `Object` (data: Move(MoveObject), owner, previous_transaction,
 * storage_rebate) and its digest is `BLAKE2b-256("Object::" || bcs)`, so digests change with every
 * version, owner or balance change exactly when a real node's would.
 */
import { bcs, TypeTagSerializer } from '@mysten/sui/bcs';
import { fromHex } from '@mysten/sui/utils';
import { coinObjectType, SUI_FRAMEWORK, SUI_TYPE, treasuryCapType } from './coin-types.ts';
import { typedDigest, u64le } from './hashing.ts';

interface ObjectCommon {
  id: string;
  version: bigint;
  digest: string;
  /** The owning address (the fake only has address-owned objects). */
  owner: string;
  previousTransaction: string;
  /** Storage cost paid when this version was written; 99% comes back when it is mutated or deleted. */
  storageRebate: bigint;
}

/** A `0x2::coin::Coin<T>`. */
export interface CoinObject extends ObjectCommon {
  kind: 'coin';
  coinType: string;
  balance: bigint;
}

/** A `0x2::coin::TreasuryCap<T>` (the faucet's right to mint T). */
export interface TreasuryCapObject extends ObjectCommon {
  kind: 'treasury-cap';
  coinType: string;
  totalSupply: bigint;
}

export type FakeObject = CoinObject | TreasuryCapObject;

const MoveObjectType = bcs.enum('MoveObjectType', {
  Other: bcs.StructTag,
  GasCoin: null,
  StakedSui: null,
  Coin: bcs.TypeTag,
});

const MoveObject = bcs.struct('MoveObject', {
  type: MoveObjectType,
  hasPublicTransfer: bcs.bool(),
  version: bcs.u64(),
  contents: bcs.byteVector(),
});

const ObjectData = bcs.enum('Data', { Move: MoveObject, Package: null });

const ObjectBcs = bcs.struct('Object', {
  data: ObjectData,
  owner: bcs.Owner,
  previousTransaction: bcs.ObjectDigest,
  storageRebate: bcs.u64(),
});

/** The full Move type of an object. */
export function objectTypeOf(obj: FakeObject): string {
  return obj.kind === 'coin' ? coinObjectType(obj.coinType) : treasuryCapType(obj.coinType);
}

/** The Move struct's BCS (`UID` then the u64 value: `Coin { id, balance }`, `TreasuryCap { id, total_supply }`). */
export function moveContents(obj: FakeObject): Uint8Array {
  const value = obj.kind === 'coin' ? obj.balance : obj.totalSupply;
  const out = new Uint8Array(40);
  out.set(fromHex(obj.id), 0);
  out.set(u64le(value), 32);
  return out;
}

function moveObjectType(obj: FakeObject) {
  if (obj.kind === 'coin') {
    return obj.coinType === SUI_TYPE ? { GasCoin: true } : { Coin: obj.coinType };
  }
  return {
    Other: {
      address: SUI_FRAMEWORK,
      module: 'coin',
      name: 'TreasuryCap',
      typeParams: [TypeTagSerializer.parseFromStr(obj.coinType, true)],
    },
  };
}

/** The object's BCS as sui-types serialises `Object`. */
export function objectBcs(obj: FakeObject): Uint8Array {
  return ObjectBcs.serialize({
    data: {
      Move: {
        type: moveObjectType(obj),
        hasPublicTransfer: true,
        version: obj.version,
        contents: moveContents(obj),
      },
    },
    owner: { AddressOwner: obj.owner },
    previousTransaction: obj.previousTransaction,
    storageRebate: obj.storageRebate,
  }).toBytes();
}

/** Recomputes and sets the object's digest from its content; returns the object. */
export function sealObject<T extends FakeObject>(obj: T): T {
  obj.digest = typedDigest('Object', objectBcs(obj));
  return obj;
}

/** A detached copy, so an execution can change it without touching the store. */
export function cloneObject<T extends FakeObject>(obj: T): T {
  return { ...obj };
}

/**
 * Live objects by id, every version ever written (for GetObject at a version), an index by owner,
 * and address balances by owner and coin type.
 */
export class ObjectStore {
  private readonly live = new Map<string, FakeObject>();
  private readonly versions = new Map<string, FakeObject>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly deletedAt = new Map<string, bigint>();
  private readonly addressBalances = new Map<string, Map<string, bigint>>();

  /** The live object, or undefined if it never existed or was deleted. */
  get(id: string): FakeObject | undefined {
    return this.live.get(id);
  }

  /** The object as it was at a version, if that version was ever written. */
  getAt(id: string, version: bigint): FakeObject | undefined {
    return this.versions.get(`${id}@${version}`);
  }

  /** The version at which an object was deleted, if it was. */
  deletedVersion(id: string): bigint | undefined {
    return this.deletedAt.get(id);
  }

  /** Writes a new version (the object must already be sealed). */
  put(obj: FakeObject): void {
    const previous = this.live.get(obj.id);
    if (previous && previous.owner !== obj.owner) this.byOwner.get(previous.owner)?.delete(obj.id);
    const stored = cloneObject(obj);
    this.live.set(obj.id, stored);
    this.versions.set(`${obj.id}@${obj.version}`, stored);
    let owned = this.byOwner.get(obj.owner);
    if (!owned) {
      owned = new Set();
      this.byOwner.set(obj.owner, owned);
    }
    owned.add(obj.id);
  }

  /** Deletes a live object at a version. */
  remove(id: string, version: bigint): void {
    const previous = this.live.get(id);
    if (!previous) return;
    this.byOwner.get(previous.owner)?.delete(id);
    this.live.delete(id);
    this.deletedAt.set(id, version);
  }

  /** Live objects owned by an address, sorted by id. */
  ownedBy(owner: string): FakeObject[] {
    const ids = [...(this.byOwner.get(owner) ?? [])].sort();
    return ids.map((id) => this.live.get(id)).filter((o): o is FakeObject => o !== undefined);
  }

  /** Live coins of a type owned by an address, sorted by id. */
  coinsOf(owner: string, coinType: string): CoinObject[] {
    return this.ownedBy(owner).filter((o): o is CoinObject => o.kind === 'coin' && o.coinType === coinType);
  }

  /** The SIP-58 address balance of an owner in a coin type. */
  addressBalance(owner: string, coinType: string): bigint {
    return this.addressBalances.get(owner)?.get(coinType) ?? 0n;
  }

  /** Adds a (possibly negative) delta to an address balance; throws if it would go below zero. */
  addToAddressBalance(owner: string, coinType: string, delta: bigint): void {
    let balances = this.addressBalances.get(owner);
    if (!balances) {
      balances = new Map();
      this.addressBalances.set(owner, balances);
    }
    const next = (balances.get(coinType) ?? 0n) + delta;
    if (next < 0n) throw new Error(`address balance of ${owner} in ${coinType} would be negative`);
    balances.set(coinType, next);
  }

  /** Total balance per coin type of an owner: coin objects plus address balance. */
  balances(owner: string): Map<string, { coins: bigint; address: bigint }> {
    const out = new Map<string, { coins: bigint; address: bigint }>();
    const entry = (coinType: string) => {
      let e = out.get(coinType);
      if (!e) {
        e = { coins: 0n, address: 0n };
        out.set(coinType, e);
      }
      return e;
    };
    for (const obj of this.ownedBy(owner)) {
      if (obj.kind === 'coin') entry(obj.coinType).coins += obj.balance;
    }
    for (const [coinType, amount] of this.addressBalances.get(owner) ?? []) entry(coinType).address += amount;
    return out;
  }

  /** Every owner that holds an object or an address balance. */
  owners(): string[] {
    const set = new Set<string>();
    for (const [owner, ids] of this.byOwner) if (ids.size > 0) set.add(owner);
    for (const owner of this.addressBalances.keys()) set.add(owner);
    return [...set].sort();
  }

  /** Number of live objects. */
  get size(): number {
    return this.live.size;
  }
}
