import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import defaults from '../../wrangler-free.config.ts';
import { CHAINS } from '../domain/chains.ts';
import { ConfigError } from './config-error.ts';
import { type Config, type ConfigInput, configSchema } from './schema.ts';

export type Env = Record<string, string | undefined>;

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges `over` into `base`: objects merge, everything else (arrays included) replaces. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlain(base) || !isPlain(over)) return over === undefined ? base : over;
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = deepMerge(base[key], value);
  return out;
}

/** Reads a `--config` file: JSON, or a TS/JS module whose default export is the object. */
export async function readConfigFile(file: string): Promise<unknown> {
  const path = resolve(file);
  if (path.endsWith('.json')) return JSON.parse(readFileSync(path, 'utf8'));
  const mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  return mod.default ?? mod;
}

/** Turns environment overrides into a partial config, collecting problems instead of throwing. */
function envOverrides(env: Env, network: string, problems: string[]): Plain {
  const out: Plain = {};
  if (env.PORT !== undefined) {
    const port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      problems.push(`PORT must be a port number, got "${env.PORT}"`);
    else out.port = port;
  }
  const admin: Plain = {};
  if (env.KASSA_ADMIN_PORT !== undefined) {
    const port = Number(env.KASSA_ADMIN_PORT);
    if (env.KASSA_ADMIN_PORT.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
      problems.push(`KASSA_ADMIN_PORT must be a port number, got "${env.KASSA_ADMIN_PORT}"`);
    else admin.port = port;
  }
  if (env.KASSA_ADMIN_HOST) admin.host = env.KASSA_ADMIN_HOST;
  if (Object.keys(admin).length > 0) out.admin = admin;
  if (env.KASSA_DB) out.db = env.KASSA_DB;
  const database = databaseOverride(env, problems);
  if (database) out.database = database;
  if (env.KASSA_BASE_URL) out.baseUrl = env.KASSA_BASE_URL;
  if (env.KASSA_NETWORK) out.network = env.KASSA_NETWORK;
  if (env.KASSA_LOG_LEVEL) out.logLevel = env.KASSA_LOG_LEVEL;
  if (env.KASSA_API_PROCESSES !== undefined) {
    const processes = Number(env.KASSA_API_PROCESSES);
    if (!/^\d+$/.test(env.KASSA_API_PROCESSES.trim()) || processes < 1 || processes > 64)
      problems.push(
        `KASSA_API_PROCESSES must be a whole number from 1 to 64, got "${env.KASSA_API_PROCESSES}"`,
      );
    else out.api = { processes };
  }
  const chains: Plain = {};
  for (const chain of CHAINS) {
    const entry: Plain = {};
    const rpc = env[`KASSA_RPC_${chain}`];
    if (rpc !== undefined) {
      const urls = rpc
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      entry[network] = { rpc: urls };
    }
    const conf = env[`KASSA_CONFIRMATIONS_${chain}`];
    if (conf !== undefined) {
      if (conf === 'finalized') entry.confirmations = 'finalized';
      else if (/^\d+$/.test(conf)) entry.confirmations = Number(conf);
      else problems.push(`KASSA_CONFIRMATIONS_${chain} must be a block count or "finalized", got "${conf}"`);
    }
    const sweep = sweepOverride(env, chain, problems);
    if (sweep) entry.sweep = sweep;
    if (Object.keys(entry).length > 0) chains[chain] = entry;
  }
  if (Object.keys(chains).length > 0) out.chains = chains;
  return out;
}

/**
 * The `database` section from the environment: KASSA_DATABASE_URL (a postgres:// URL; empty means
 * unset, as an env file's blank line does) and KASSA_DATABASE_POOL_SIZE. The URL is checked by the
 * schema, whose message never repeats it (it holds the password).
 */
function databaseOverride(env: Env, problems: string[]): Plain | null {
  const out: Plain = {};
  const url = env.KASSA_DATABASE_URL?.trim();
  if (url) out.url = url;
  const pool = env.KASSA_DATABASE_POOL_SIZE;
  if (pool !== undefined && pool.trim() !== '') {
    if (/^\d+$/.test(pool.trim())) out.poolSize = Number(pool);
    else problems.push(`KASSA_DATABASE_POOL_SIZE must be a number of connections, got "${pool}"`);
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * A chain's sweep settings from the environment: KASSA_SWEEP_<CHAIN> (a JSON object, merged over the
 * file's) and KASSA_SWEEP_DESTINATION_<CHAIN> (`hot`, an address, or `none` to clear it).
 */
function sweepOverride(env: Env, chain: string, problems: string[]): Plain | null {
  let out: Plain | null = null;
  const json = env[`KASSA_SWEEP_${chain}`];
  if (json !== undefined && json.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(json);
      if (isPlain(parsed)) out = parsed;
      else problems.push(`KASSA_SWEEP_${chain} must be a JSON object such as {"destination":"hot"}`);
    } catch {
      problems.push(`KASSA_SWEEP_${chain} is not JSON: ${json.slice(0, 40)}`);
    }
  }
  const destination = env[`KASSA_SWEEP_DESTINATION_${chain}`]?.trim();
  if (destination) out = { ...(out ?? {}), destination: destination === 'none' ? null : destination };
  return out;
}

/**
 * Builds the configuration: defaults (wrangler-free.config.ts) ← `--config` file ← `overrides` ←
 * environment. Validates everything at once and throws ConfigError listing every problem.
 */
export async function loadConfig(
  options: { file?: string; env?: Env; overrides?: ConfigInput | Plain } = {},
): Promise<Config> {
  const env = options.env ?? process.env;
  const problems: string[] = [];
  let merged: unknown = defaults;
  if (options.file) {
    try {
      merged = deepMerge(merged, await readConfigFile(options.file));
    } catch (error) {
      problems.push(`--config ${options.file}: ${(error as Error).message}`);
    }
  }
  if (options.overrides) merged = deepMerge(merged, options.overrides);
  const network = env.KASSA_NETWORK ?? (isPlain(merged) ? String(merged.network) : 'mainnet');
  merged = deepMerge(merged, envOverrides(env, network, problems));
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  return parsed.data;
}

/** The secrets Kassa reads, only ever from the environment (or files the environment names). */
export interface Secrets {
  mnemonic: string | null;
  masterKey: Buffer | null;
}

function fromEnvOrFile(env: Env, name: string, problems: string[]): string | null {
  const direct = env[name];
  const file = env[`${name}_FILE`];
  if (direct && file) problems.push(`set either ${name} or ${name}_FILE, not both`);
  if (direct) return direct.trim();
  if (file) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      problems.push(`${name}_FILE: cannot read ${file}`);
    }
  }
  return null;
}

/**
 * Reads and checks KASSA_MNEMONIC(_FILE) and KASSA_MASTER_KEY(_FILE). `require` names the secrets
 * the command cannot run without. Problems never contain the secret values.
 */
export function loadSecrets(
  env: Env = process.env,
  require: { mnemonic?: boolean; masterKey?: boolean } = {},
): Secrets {
  const problems: string[] = [];
  const mnemonicText = fromEnvOrFile(env, 'KASSA_MNEMONIC', problems);
  const keyText = fromEnvOrFile(env, 'KASSA_MASTER_KEY', problems);
  let mnemonic: string | null = null;
  if (mnemonicText !== null) {
    const normalised = mnemonicText.normalize('NFKD').split(/\s+/).join(' ').toLowerCase();
    if (validateMnemonic(normalised, wordlist)) mnemonic = normalised;
    else problems.push('KASSA_MNEMONIC is not a valid BIP-39 English mnemonic (words or checksum wrong)');
  } else if (require.mnemonic) {
    problems.push('KASSA_MNEMONIC or KASSA_MNEMONIC_FILE is required (a BIP-39 phrase)');
  }
  let masterKey: Buffer | null = null;
  if (keyText !== null) {
    if (/^[0-9a-fA-F]{64}$/.test(keyText)) masterKey = Buffer.from(keyText, 'hex');
    else problems.push('KASSA_MASTER_KEY must be 64 hex characters (openssl rand -hex 32)');
  } else if (require.masterKey) {
    problems.push('KASSA_MASTER_KEY or KASSA_MASTER_KEY_FILE is required (openssl rand -hex 32)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { mnemonic, masterKey };
}
