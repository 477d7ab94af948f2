import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A throwaway PostgreSQL cluster on 127.0.0.1, for tests and benchmarks. */
export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, loopback only). */
  adminUrl: string;
  port: number;
  /** The URL of database `name` in this cluster. */
  urlOf(name: string): string;
  stop(): void;
}

/**
 * The folder of PostgreSQL's server programs (initdb, pg_ctl): Debian's /usr/lib/postgresql/<major>/bin,
 * the newest of at least 15, else whatever `pg_config --bindir` says. Throws a clear error when
 * PostgreSQL is not installed (`.ci/run` installs it: apt-get install postgresql).
 */
export function pgBinDir(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .map(Number)
      .filter((m) => m >= 15 && existsSync(join(root, String(m), 'bin/initdb')))
      .sort((a, b) => b - a);
    if (majors.length > 0) return join(root, String(majors[0]), 'bin');
  }
  const probe = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (probe.status === 0 && existsSync(join(probe.stdout.trim(), 'initdb'))) return probe.stdout.trim();
  throw new Error('PostgreSQL 15 or newer is not installed: apt-get install -y postgresql (see .ci/run)');
}

/**
 * Where a cluster's folder goes: a folder every user can traverse (the server may run as the
 * `postgres` user, and /tmp is private to root on some machines). A test cluster (not durable) goes
 * to /dev/shm when it can: memory, so fsync-free writes cost nothing.
 */
function clusterParent(durable: boolean): string {
  const candidates = durable ? ['/var/tmp', tmpdir()] : ['/dev/shm', '/var/tmp', tmpdir()];
  for (const folder of candidates) {
    if (existsSync(folder) && (statSync(folder).mode & 0o001) !== 0) return folder;
  }
  return tmpdir();
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a new cluster in a temporary folder: initdb, then pg_ctl start on 127.0.0.1 and a free
 * port, its socket in the same folder. PostgreSQL refuses to run as root, so as root the programs
 * run as the `postgres` user (runuser). `durable: false` (tests) turns fsync off; benchmarks keep it.
 */
export async function startPgCluster(
  options: { durable?: boolean; maxConnections?: number } = {},
): Promise<PgCluster> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(clusterParent(options.durable ?? false), 'kassa-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, program);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args;
    try {
      execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
      throw new Error(`${program} failed: ${stderr || (error as Error).message}`);
    }
  };
  if (asRoot) {
    chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const settings = [
    `listen_addresses=127.0.0.1`,
    `port=${port}`,
    `unix_socket_directories=${dir}`,
    `max_connections=${options.maxConnections ?? 200}`,
    `fsync=${options.durable ? 'on' : 'off'}`,
    `synchronous_commit=${options.durable ? 'on' : 'off'}`,
    `full_page_writes=${options.durable ? 'on' : 'off'}`,
  ];
  const log = join(dir, 'server.log');
  try {
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      settings.map((s) => `-c ${s}`).join(' '),
      '-w',
      '-t',
      '60',
      '-l',
      log,
      'start',
    ]);
  } catch (error) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-5).join('\n') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${tail || (error as Error).message}`);
  }
  const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  let stopped = false;
  return {
    adminUrl: urlOf('postgres'),
    port,
    urlOf,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Creates database `name` (from `template` when given) in the cluster of `adminUrl`. */
export async function createPgDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await client.end();
  }
}

/** Drops database `name`, closing what is still connected to it. */
export async function dropPgDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
