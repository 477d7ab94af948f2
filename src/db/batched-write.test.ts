import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors.ts';
import { batchedWrite } from './batched-write.ts';
import { type Db, openDatabase, writeTransaction, writeTransactionAsync } from './client.ts';
import { SYNC_LOCK_WAIT_MS } from './write-lock.ts';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kassa-batched-'));
  db = openDatabase(join(dir, 'test.db'));
  db.$client.exec('CREATE TABLE items (name TEXT PRIMARY KEY, n INTEGER NOT NULL)');
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const insert =
  (name: string, n = 1) =>
  () =>
    db.$client.prepare('INSERT INTO items (name, n) VALUES (?, ?)').run(name, n).changes;
const names = () =>
  (db.$client.prepare('SELECT name FROM items ORDER BY name').all() as { name: string }[]).map((r) => r.name);

describe('batchedWrite', () => {
  it('stores every write of one turn and resolves each with its own result', async () => {
    const results = await Promise.all([batchedWrite(db, insert('a')), batchedWrite(db, () => 'value')]);
    expect(results).toEqual([1, 'value']);
    expect(names()).toEqual(['a']);
  });

  it('rolls back only the failing write, including what it wrote before failing', async () => {
    const outcomes = await Promise.allSettled([
      batchedWrite(db, insert('a')),
      batchedWrite(db, () => {
        insert('b')();
        insert('a')(); // duplicate key: this write fails after writing 'b'
      }),
      batchedWrite(db, insert('c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(names()).toEqual(['a', 'c']);
  });

  it('lets each write see the ones queued before it', async () => {
    const seen = await Promise.all([
      batchedWrite(db, insert('a')),
      batchedWrite(
        db,
        () => (db.$client.prepare('SELECT count(*) AS c FROM items').get() as { c: number }).c,
      ),
    ]);
    expect(seen[1]).toBe(1);
  });

  it('runs a write that opens its own transaction as a nested one', async () => {
    await batchedWrite(db, () => db.$client.transaction(() => insert('a')())());
    expect(names()).toEqual(['a']);
  });

  it('fails every write of the batch, and stores none, when the batch cannot commit', async () => {
    // A reader holding the write lock of another connection makes BEGIN IMMEDIATE fail at once.
    const other = openDatabase(join(dir, 'test.db'));
    other.$client.pragma('busy_timeout = 0');
    db.$client.pragma('busy_timeout = 0');
    other.$client.prepare('BEGIN IMMEDIATE').run();
    try {
      const outcomes = await Promise.allSettled([
        batchedWrite(db, insert('a')),
        batchedWrite(db, insert('b')),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    } finally {
      other.$client.prepare('ROLLBACK').run();
      other.$client.close();
    }
    expect(names()).toEqual([]);
    await batchedWrite(db, insert('c'));
    expect(names()).toEqual(['c']);
  });
});

/**
 * For the tests of a describe block: `db` reopened as a server connection (lockWait 'async'), and
 * another connection holding the write lock (BEGIN IMMEDIATE) until the test commits it.
 */
function lockHeldByAnother(): { other: () => Db } {
  let other: Db;
  beforeEach(() => {
    db.$client.close();
    db = openDatabase(join(dir, 'test.db'), { lockWait: 'async', lockWaitMs: 2000 });
    other = openDatabase(join(dir, 'test.db'));
    other.$client.prepare('BEGIN IMMEDIATE').run();
  });
  afterEach(() => {
    if (other.$client.inTransaction) other.$client.prepare('ROLLBACK').run();
    other.$client.close();
  });
  return { other: () => other };
}

describe('batchedWrite while another connection holds the write lock (a server connection)', () => {
  const held = lockHeldByAnother();

  it('waits without holding the event loop, in order, and stores the writes once the lock is free', async () => {
    const writes = [batchedWrite(db, insert('a')), batchedWrite(db, insert('b'))];
    // The event loop turns while the writes wait: timers run, and later writes queue behind.
    let turns = 0;
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        if (++turns === 5) {
          clearInterval(tick);
          resolve();
        }
      }, 5);
    });
    writes.push(batchedWrite(db, insert('c')));
    expect(names()).toEqual([]);
    held.other().$client.prepare('COMMIT').run();
    expect(await Promise.all(writes)).toEqual([1, 1, 1]);
    expect(names()).toEqual(['a', 'b', 'c']);
  });

  it('gives up with busy (503) after database.lockWaitMs, having stored nothing', async () => {
    db.$client.close();
    db = openDatabase(join(dir, 'test.db'), { lockWait: 'async', lockWaitMs: 150 });
    const outcome = await batchedWrite(db, insert('a')).catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).code).toBe('busy');
    held.other().$client.prepare('COMMIT').run();
    expect(names()).toEqual([]);
  });
});

describe('writeTransaction and writeTransactionAsync while another connection holds the write lock', () => {
  const held = lockHeldByAnother();

  it('a synchronous write waits at most ~40 ms once, then fails at once until the lock is free', () => {
    let started = performance.now();
    expect(() => writeTransaction(db, insert('a'))).toThrow(AppError);
    const first = performance.now() - started;
    expect(first).toBeGreaterThanOrEqual(SYNC_LOCK_WAIT_MS - 5);
    started = performance.now();
    for (let i = 0; i < 20; i++) expect(() => writeTransaction(db, insert('a'))).toThrow(/locked/);
    // Twenty more attempts would have taken 20 × 40 ms had each waited.
    expect(performance.now() - started).toBeLessThan(10 * SYNC_LOCK_WAIT_MS);
  });

  it('an asynchronous write lands once the lock is released, and reads work meanwhile', async () => {
    const write = writeTransactionAsync(db, insert('a'));
    // It tried, found the lock taken, and now waits asynchronously (no more synchronous waits).
    await expect.poll(() => db.$client.pragma('busy_timeout', { simple: true })).toBe(0);
    expect(names()).toEqual([]);
    held.other().$client.prepare('COMMIT').run();
    expect(await write).toBe(1);
    expect(names()).toEqual(['a']);
    // Writes wait on the event loop again once the lock was seen free.
    expect(db.$client.pragma('busy_timeout', { simple: true })).toBe(SYNC_LOCK_WAIT_MS);
  });
});
