import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chain, type DeployTrc20Options, type Genesis, type View } from './chain.ts';
import { toBase58, toHexAddress } from './encoding.ts';
import { type FailRule, Faults } from './faults.ts';
import { stringifyTron } from './json.ts';
import { balanceOf } from './trc20.ts';
import { handleWalletApi, type Params } from './wallet-api.ts';

/** Settings of a fake TRON node. */
export interface FakeTronNodeOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one */
  readonly port?: number;
  /** ms between blocks (default 3 000); 0 = manual mode, blocks only through `mine()` */
  readonly blockIntervalMs?: number;
  /** blocks between the head and the solidified block (default 19) */
  readonly solidLag?: number;
  /** timestamp of block 0 (default: now minus the premined blocks) */
  readonly genesisTime?: number;
  /** empty blocks produced at start so head and solid are above 0 (default solidLag + 1) */
  readonly premine?: number;
  readonly genesis?: Genesis;
}

/** Head and solid positions of the chain. */
export interface FakeTronState {
  readonly head: number;
  readonly solid: number;
  readonly headBlockId: string;
  readonly solidBlockId: string;
  readonly headTimestamp: number;
  readonly pending: number;
}

/** A running fake TRON full node and its test controls (also served under `/_fake/*`). */
export interface FakeTronNode {
  /** base URL, e.g. `http://127.0.0.1:41234`, usable as tronweb's `fullHost` */
  readonly url: string;
  /** stops block production and closes every socket */
  close(): Promise<void>;
  /** produces `count` blocks (default 1) now */
  mine(count?: number): FakeTronState;
  /** drops the last `count` unsolidified blocks; returns the ids of their transactions */
  fork(count: number, options?: { reinclude?: boolean }): { dropped: string[]; state: FakeTronState };
  /** queues a failure of the HTTP API */
  fail(rule: FailRule): void;
  /** removes every queued failure */
  clearFailures(): void;
  /** sets an account's TRX balance in sun (a fixture applied to solidified state too) */
  setTrx(address: string, sun: bigint): void;
  /** deploys a native TRC-20 token; returns its base58 address */
  deployTrc20(options: DeployTrc20Options): string;
  /** mints base units of a token to an address (a fixture: no log) */
  mintTrc20(contract: string, to: string, amount: bigint): void;
  /** head block number */
  head(): number;
  /** solidified block number */
  solid(): number;
  /** head, solid and pool at a glance */
  state(): FakeTronState;
  /** TRX balance in sun as the head (default) or the solidified state sees it */
  trxBalance(address: string, view?: View): bigint;
  /** token balance in base units as the head (default) or the solidified state sees it */
  trc20Balance(contract: string, holder: string, view?: View): bigint;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_SLOT_MS = 3_000;

/**
 * Starts a fake java-tron full node on 127.0.0.1 that tronweb 6.5 and the gateway's TRON adapter
 * can use unmodified (`/wallet/*`, `/walletsolidity/*`), plus the `/_fake/*` control API.
 * Resolves once it listens. Throws if the genesis is inconsistent or the port is taken.
 */
export async function startFakeTronNode(options: FakeTronNodeOptions = {}): Promise<FakeTronNode> {
  const blockIntervalMs = options.blockIntervalMs ?? DEFAULT_SLOT_MS;
  if (!Number.isSafeInteger(blockIntervalMs) || blockIntervalMs < 0)
    throw new RangeError('bad blockIntervalMs');
  const slotMs = blockIntervalMs === 0 ? DEFAULT_SLOT_MS : blockIntervalMs;
  const solidLag = options.solidLag ?? 19;
  const premine = options.premine ?? solidLag + 1;
  const genesisTime = options.genesisTime ?? Math.floor(Date.now() / slotMs) * slotMs - premine * slotMs;
  const chain = new Chain({ slotMs, solidLag, genesisTime, premine, genesis: options.genesis });
  const faults = new Faults();
  const held = new Set<ServerResponse>();

  const state = (): FakeTronState => ({
    head: chain.head.number,
    solid: chain.solid.number,
    headBlockId: chain.head.id,
    solidBlockId: chain.solid.id,
    headTimestamp: chain.head.timestamp,
    pending: chain.pendingCount,
  });

  const controls = {
    mine: (count = 1): FakeTronState => {
      chain.mine(count);
      return state();
    },
    fork: (count: number, forkOptions: { reinclude?: boolean } = {}) => ({
      dropped: chain.fork(count, forkOptions),
      state: state(),
    }),
    fail: (rule: FailRule): void => faults.add(rule),
    clearFailures: (): void => faults.clear(),
    setTrx: (address: string, sun: bigint): void => chain.setTrx(address, sun),
    deployTrc20: (deploy: DeployTrc20Options): string => chain.deployTrc20(deploy),
    mintTrc20: (contract: string, to: string, amount: bigint): void => chain.mintTrc20(contract, to, amount),
    head: (): number => chain.head.number,
    solid: (): number => chain.solid.number,
    state,
    trxBalance: (address: string, view: View = 'full'): bigint =>
      chain.state(view).accounts.get(toHexAddress(address))?.balance ?? 0n,
    trc20Balance: (contract: string, holder: string, view: View = 'full'): bigint => {
      const token = chain.state(view).tokens.get(toHexAddress(contract));
      return token === undefined ? 0n : balanceOf(token, toHexAddress(holder));
    },
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        send(response, 500, { Error: `class java.lang.RuntimeException : ${String(error)}` });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const body = await readBody(request);
    if (body === undefined) {
      send(response, 413, '<html><body><h2>413 Payload Too Large</h2></body></html>', 'text/html');
      return;
    }
    if (path.startsWith('/_fake/')) {
      send(response, ...control(path, parseControlBody(body)));
      return;
    }
    const rule = faults.take(path);
    if (rule !== undefined && !rule.afterProcessing) {
      failRequest(response, rule);
      return;
    }
    const parsed = parseParams(url, body);
    const answer = 'error' in parsed ? { body: parsed.error } : handleWalletApi(chain, path, parsed.params);
    if (rule !== undefined) {
      failRequest(response, rule);
      return;
    }
    if (answer === undefined) {
      send(
        response,
        404,
        `<html><body><h2>HTTP ERROR 404 Not Found</h2><p>${path}</p></body></html>`,
        'text/html',
      );
      return;
    }
    const int64AsString = request.method === 'GET' && url.searchParams.get('int64_as_string') === 'true';
    send(response, 200, `${stringifyTron(answer.body, int64AsString)}\n`);
  }

  function failRequest(response: ServerResponse, rule: FailRule): void {
    switch (rule.mode) {
      case 'timeout':
        held.add(response);
        response.on('close', () => held.delete(response));
        return;
      case '503':
        send(
          response,
          503,
          '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>',
          'text/html',
        );
        return;
      case '429':
        response.setHeader('Retry-After', '1');
        send(response, 429, {
          Error: 'request rate exceeded the allowed_rps, and the query server is suspended',
        });
        return;
      case 'lack-of-resources':
        send(response, 200, {
          Error: 'class java.lang.IllegalAccessException : lack of computing resources',
        });
        return;
    }
  }

  function control(path: string, input: Record<string, unknown> | undefined): [number, unknown] {
    if (input === undefined) return [400, { error: 'body must be a JSON object' }];
    try {
      switch (path) {
        case '/_fake/state':
          return [200, state()];
        case '/_fake/mine':
          return [200, controls.mine(input.n === undefined ? 1 : Number(input.n))];
        case '/_fake/fork':
          return [200, controls.fork(Number(input.n), { reinclude: input.reinclude === true })];
        case '/_fake/fail':
          if (input.mode === 'none') faults.clear();
          else faults.add(input as unknown as FailRule);
          return [200, { ok: true }];
        case '/_fake/set-trx':
          controls.setTrx(String(input.address), bigintOf(input.sun));
          return [200, { ok: true }];
        case '/_fake/deploy-trc20': {
          const address = controls.deployTrc20(input as unknown as DeployTrc20Options);
          return [200, { address, hex: toHexAddress(address) }];
        }
        case '/_fake/mint-trc20':
          controls.mintTrc20(String(input.contract), String(input.to), bigintOf(input.amount));
          return [200, { ok: true }];
        case '/_fake/balance': {
          const view: View = input.view === 'solid' ? 'solid' : 'full';
          const address = String(input.address);
          const trx = controls.trxBalance(address, view);
          const token =
            input.contract === undefined
              ? undefined
              : controls.trc20Balance(String(input.contract), address, view);
          return [200, { address: toBase58(toHexAddress(address)), trx, token }];
        }
        default:
          return [404, { error: `unknown control ${path}` }];
      }
    } catch (error) {
      return [400, { error: (error as Error).message }];
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // One block per slot, as a real node's block time follows the wall clock: a tick that comes late
  // (a busy machine) mines the slots it missed, so block timestamps never fall behind real time.
  const produce = () => {
    const due = Math.floor((Date.now() - chain.head.timestamp) / slotMs);
    if (due > 0) chain.mine(due);
  };
  const timer = blockIntervalMs > 0 ? setInterval(produce, blockIntervalMs) : undefined;
  timer?.unref();
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    ...controls,
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      for (const response of held) response.destroy();
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json',
): void {
  const text = typeof body === 'string' ? body : stringifyTron(body, true);
  response.writeHead(status, { 'content-type': `${contentType}; charset=utf-8` });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Query string values overlaid by the JSON body, as java-tron's servlets read GET and POST. */
function parseParams(url: URL, body: string): { params: Params } | { error: unknown } {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (body.trim() === '') return { params };
  try {
    const json: unknown = JSON.parse(body);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return { error: { Error: 'class com.alibaba.fastjson.JSONException : not a JSON object' } };
    }
    return { params: { ...params, ...json } };
  } catch (error) {
    return { error: { Error: `class com.alibaba.fastjson.JSONException : ${(error as Error).message}` } };
  }
}

function parseControlBody(body: string): Record<string, unknown> | undefined {
  if (body.trim() === '') return {};
  try {
    const json: unknown = JSON.parse(body);
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function bigintOf(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new Error(
    `expected a non-negative integer (a decimal string for large values), got ${String(value)}`,
  );
}
