import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type PermissionReport } from './client.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kassa-perm-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('openDatabase keeps the database private to its user', () => {
  it('creates the data folder 0700 and the database, its -wal and -shm 0600', () => {
    const path = join(root, 'data', 'kassa.db');
    const db = openDatabase(path);
    db.$client.exec('CREATE TABLE t (x INTEGER)');
    db.$client.exec('INSERT INTO t VALUES (1)');
    expect(mode(join(root, 'data'))).toBe('700');
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file), file).toBe('600');
    db.$client.close();
  });

  it('tightens an existing folder open to others and database files made 0644, and says so', () => {
    const folder = join(root, 'shared');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const path = join(folder, 'kassa.db');
    const first = openDatabase(path);
    first.$client.exec('CREATE TABLE t (x INTEGER)');
    first.$client.close();
    for (const file of [path, `${path}-wal`, `${path}-shm`]) writeFileSync(file, '', { flag: 'a' });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) chmodSync(file, 0o644);
    chmodSync(folder, 0o755);
    const reports: (PermissionReport & { folder: string })[] = [];
    const db = openDatabase(path, { onPermissions: (r) => reports.push(r) });
    expect(reports).toEqual([{ folder, tightenedFolder: '755', looseFolder: null }]);
    expect(mode(folder)).toBe('700');
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file), file).toBe('600');
    db.$client.close();
  });

  it('leaves a private folder alone and reports nothing', () => {
    const reports: unknown[] = [];
    const db = openDatabase(join(root, 'kassa.db'), { onPermissions: (r) => reports.push(r) });
    expect(reports).toEqual([]);
    expect(mode(root)).toBe('700');
    db.$client.close();
  });
});
