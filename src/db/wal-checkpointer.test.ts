import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../lib/logger.ts';
import { type Db, openDatabase } from './client.ts';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.ts';

let dir: string;
let path: string;
let db: Db;
let checkpointer: WalCheckpointer | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kassa-wal-'));
  path = join(dir, 'test.db');
  db = openDatabase(path);
  db.$client.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
});
afterEach(async () => {
  await checkpointer?.stop();
  checkpointer = null;
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const size = (file: string) => statSync(file).size;

/** Commits about 8 MiB (2,000 pages of 4 KiB): twice SQLite's default checkpoint threshold. */
function commitEightMiB(): void {
  const insert = db.$client.prepare('INSERT INTO blobs (body) VALUES (?)');
  const body = Buffer.alloc(4000, 7);
  db.$client.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(body);
  })();
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('startWalCheckpointer', () => {
  it('copies the log into the database on its thread, not inside the commit', async () => {
    checkpointer = startWalCheckpointer(db, path, silentLogger(), { busyRowsPerSecond: 0 });
    const before = size(path);
    commitEightMiB();
    // Without the thread, SQLite would have copied the log into the file within this commit.
    expect(size(path) - before).toBeLessThan(MiB);
    expect(size(`${path}-wal`)).toBeGreaterThan(7 * MiB);
    expect(await until(() => size(path) - before > 7 * MiB, 5_000)).toBe(true);
  });

  it('lets the log be reused once copied, so it does not grow with every commit', async () => {
    const started = startWalCheckpointer(db, path, silentLogger(), { busyRowsPerSecond: 0 });
    checkpointer = started;
    // A result that arrives more than one interval (250 ms) after the commit is of a checkpoint
    // that began after it.
    const copiedSince = (since: number) => {
      const last = started?.last();
      return !!last && last.at > since + 300 && last.log > 0 && last.checkpointed === last.log;
    };
    commitEightMiB();
    const first = size(`${path}-wal`);
    for (let round = 0; round < 4; round++) {
      const committed = Date.now();
      expect(await until(() => copiedSince(committed), 5_000)).toBe(true);
      commitEightMiB();
    }
    // Five commits of 8 MiB each: a log never reset would hold all 40 MiB.
    expect(size(`${path}-wal`)).toBeLessThan(first + 2 * MiB);
  });

  it('runs the thread only while the process writes a lot', async () => {
    checkpointer = startWalCheckpointer(db, path, silentLogger(), {
      busyRowsPerSecond: 500,
      quietMs: 300,
      sampleMs: 100,
    });
    const started = checkpointer;
    const insert = db.$client.prepare('INSERT INTO blobs (body) VALUES (?)');
    insert.run(Buffer.alloc(10));
    expect(await until(() => (started?.samples() ?? 0) >= 3, 2_000)).toBe(true); // a quiet start
    expect(started?.active()).toBe(false);
    commitEightMiB(); // 2,000 rows in one sample: 20,000 rows a second
    expect(await until(() => started?.active() === true, 2_000)).toBe(true);
    expect(await until(() => started?.active() === false, 3_000)).toBe(true);
  });

  it('stops with a last checkpoint, and does nothing for an in-memory database', async () => {
    const started = startWalCheckpointer(db, path, silentLogger(), { busyRowsPerSecond: 0 });
    const before = size(path);
    commitEightMiB();
    await started?.stop();
    expect(size(path) - before).toBeGreaterThan(7 * MiB);
    expect(startWalCheckpointer(openDatabase(':memory:'), ':memory:', silentLogger())).toBeNull();
  });
});
