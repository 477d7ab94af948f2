import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchedWrite } from './batched-write.ts';
import { type Db, openDatabase } from './client.ts';

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
