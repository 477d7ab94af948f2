/**
 * The test controls over HTTP, so a test or the sandbox in another process can drive the fake:
 *
 *   POST /_fake/mint        {"coinType", "owner", "amount": "<base units>", "asAddressBalance"?}
 *   POST /_fake/fund-sui    {"owner", "amount": "<MIST>"}
 *   POST /_fake/checkpoint  → {"sequenceNumber", "digest", "transactions"}
 *   POST /_fake/fail        {"mode": "unavailable"|"slow"|"rate-limited", "count"?, "methods"?, "delayMs"?, "phase"?}
 *   POST /_fake/heal        (clears every failure rule)
 *   GET  /_fake/state       → chain id, coin types, height, balances, active failure rules
 *
 * Amounts are decimal strings (never JSON numbers). Answers are JSON; errors are
 * `{"error": "..."}` with 400, 404 or 405.
 */
import { type FailureRule, InvalidFailureRule } from './failures.ts';
import type { MintResult } from './faucet.ts';
import { GrpcError } from './grpc-status.ts';

/** What the controls need from a node. */
export interface ControlTarget {
  mint(
    coinType: string,
    owner: string,
    amount: bigint,
    options?: { asAddressBalance?: boolean },
  ): Promise<MintResult>;
  fundSui(owner: string, amount: bigint): Promise<MintResult>;
  checkpoint(): { sequenceNumber: bigint; digest: string; transactions: string[] };
  fail(rule: FailureRule): void;
  heal(): void;
  state(): object;
}

/** An HTTP answer of a control endpoint. */
export interface ControlResponse {
  status: number;
  body: unknown;
}

class BadRequest extends Error {}

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${name} must be a non-empty string`);
  return value;
}

function amount(body: Record<string, unknown>): bigint {
  const value = body.amount;
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) {
    throw new BadRequest('amount must be a decimal string of base units');
  }
  return BigInt(value);
}

function mintJson(result: MintResult) {
  return { digest: result.digest, coinObjectId: result.coinObjectId ?? null };
}

/** Serves one `/_fake/*` request. Bad requests become 4xx answers; unexpected errors propagate (the server answers 500). */
export async function handleControl(
  target: ControlTarget,
  method: string,
  path: string,
  rawBody: string,
): Promise<ControlResponse> {
  const name = path.replace(/^\/_fake\//, '').replace(/\/$/, '');
  const expected = name === 'state' ? 'GET' : 'POST';
  const known = ['mint', 'fund-sui', 'checkpoint', 'fail', 'heal', 'state'];
  if (!known.includes(name)) return { status: 404, body: { error: `unknown control ${path}` } };
  if (method !== expected) return { status: 405, body: { error: `${path} expects ${expected}` } };
  try {
    let body: Record<string, unknown> = {};
    if (rawBody.trim() !== '') {
      const parsed: unknown = JSON.parse(rawBody);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new BadRequest('body must be a JSON object');
      }
      body = parsed as Record<string, unknown>;
    }
    switch (name) {
      case 'mint':
        return {
          status: 200,
          body: mintJson(
            await target.mint(field(body, 'coinType'), field(body, 'owner'), amount(body), {
              asAddressBalance: body.asAddressBalance === true,
            }),
          ),
        };
      case 'fund-sui':
        return { status: 200, body: mintJson(await target.fundSui(field(body, 'owner'), amount(body))) };
      case 'checkpoint': {
        const cp = target.checkpoint();
        return {
          status: 200,
          body: {
            sequenceNumber: cp.sequenceNumber.toString(),
            digest: cp.digest,
            transactions: cp.transactions,
          },
        };
      }
      case 'fail':
        target.fail(body as unknown as FailureRule);
        return { status: 200, body: { ok: true } };
      case 'heal':
        target.heal();
        return { status: 200, body: { ok: true } };
      default:
        return { status: 200, body: target.state() };
    }
  } catch (error) {
    if (
      error instanceof BadRequest ||
      error instanceof SyntaxError ||
      error instanceof GrpcError ||
      error instanceof InvalidFailureRule
    ) {
      return { status: 400, body: { error: error.message } };
    }
    throw error;
  }
}
