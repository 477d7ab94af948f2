/**
 * Failure injection for tests: make gRPC calls answer UNAVAILABLE (14), RESOURCE_EXHAUSTED (8) or
 * answer late. A rule applies to the next `count` matching calls (every call when `count` is
 * absent) of the listed methods (every gRPC method when absent). With `phase: 'after'` the call is
 * served, and its effects applied, before the error is returned: the "executed, but the client
 * never heard back" case of a real node timing out before finality.
 */
import { GrpcCode, GrpcError } from './grpc-status.ts';

/** How a call should fail. */
export interface FailureRule {
  mode: 'unavailable' | 'slow' | 'rate-limited';
  /** Number of matching calls affected; unlimited when absent. */
  count?: number;
  /** Method names (`GetCheckpoint`) or paths (`sui.rpc.v2.LedgerService/GetCheckpoint`); all when absent. */
  methods?: string[];
  /** Delay for `slow` (default 2000 ms). */
  delayMs?: number;
  /** For unavailable / rate-limited: fail before serving (default) or after serving the call. */
  phase?: 'before' | 'after';
}

/** A failure rule that cannot be applied. */
export class InvalidFailureRule extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFailureRule';
  }
}

interface ActiveRule extends FailureRule {
  remaining: number;
}

/** What the server must do for one call. */
export interface FailurePlan {
  delayMs: number;
  errorBefore: GrpcError | undefined;
  errorAfter: GrpcError | undefined;
}

function errorFor(mode: FailureRule['mode']): GrpcError | undefined {
  if (mode === 'unavailable')
    return new GrpcError(GrpcCode.UNAVAILABLE, 'fake Sui node: unavailable (injected)');
  if (mode === 'rate-limited') {
    return new GrpcError(GrpcCode.RESOURCE_EXHAUSTED, 'fake Sui node: rate limited (injected)');
  }
  return undefined;
}

/** The active failure rules of a node. */
export class FailureInjector {
  private rules: ActiveRule[] = [];

  /**
   * Adds a rule. Throws InvalidFailureRule on an unknown mode or phase, a non-positive count, a
   * negative delay or a method list that is not strings.
   */
  add(rule: FailureRule): void {
    if (!['unavailable', 'slow', 'rate-limited'].includes(rule.mode)) {
      throw new InvalidFailureRule(`unknown failure mode ${rule.mode}`);
    }
    if (rule.count !== undefined && (!Number.isInteger(rule.count) || rule.count <= 0)) {
      throw new InvalidFailureRule('count must be a positive integer');
    }
    if (rule.delayMs !== undefined && (!Number.isInteger(rule.delayMs) || rule.delayMs < 0)) {
      throw new InvalidFailureRule('delayMs must be a non-negative integer');
    }
    if (
      rule.methods !== undefined &&
      (!Array.isArray(rule.methods) || rule.methods.some((m) => typeof m !== 'string'))
    ) {
      throw new InvalidFailureRule('methods must be a list of method names');
    }
    if (rule.phase !== undefined && rule.phase !== 'before' && rule.phase !== 'after') {
      throw new InvalidFailureRule('phase must be before or after');
    }
    const { mode, count, methods, delayMs, phase } = rule;
    this.rules.push({ mode, count, methods, delayMs, phase, remaining: count ?? Number.POSITIVE_INFINITY });
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** The rules still active (for the state endpoint). */
  active(): FailureRule[] {
    return this.rules.map((rule) => {
      const out: FailureRule = { mode: rule.mode };
      if (Number.isFinite(rule.remaining)) out.count = rule.remaining;
      if (rule.methods) out.methods = rule.methods;
      if (rule.delayMs !== undefined) out.delayMs = rule.delayMs;
      if (rule.phase) out.phase = rule.phase;
      return out;
    });
  }

  /** Consumes the matching rules for a call to `path` (`/sui.rpc.v2.LedgerService/GetCheckpoint`). */
  plan(path: string): FailurePlan {
    const plan: FailurePlan = { delayMs: 0, errorBefore: undefined, errorAfter: undefined };
    const bare = path.replace(/^\//, '');
    const name = bare.split('/').pop() ?? bare;
    for (const rule of this.rules) {
      if (rule.methods && !rule.methods.some((m) => m === name || m.replace(/^\//, '') === bare)) continue;
      if (rule.mode === 'slow') {
        plan.delayMs += rule.delayMs ?? 2000;
      } else if (rule.phase === 'after') {
        plan.errorAfter ??= errorFor(rule.mode);
      } else {
        plan.errorBefore ??= errorFor(rule.mode);
      }
      rule.remaining -= 1;
    }
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return plan;
  }
}
