/** How a request fails: no answer, HTTP 503, HTTP 429, or java-tron's HTTP 200 rate-limit error. */
export type FailMode = 'timeout' | '503' | '429' | 'lack-of-resources';

/**
 * A failure to inject. `count` requests fail (default 1, `'always'` until cleared). `paths`
 * restricts it: `/wallet/broadcasttransaction` matches that path exactly, `/wallet/*` a prefix,
 * and a bare name like `getnowblock` both the `/wallet` and `/walletsolidity` twins.
 * With `afterProcessing` the node does the work (a broadcast enters the pool) and only the answer
 * is lost or replaced: the "did my transaction go out?" case.
 */
export interface FailRule {
  readonly mode: FailMode;
  readonly count?: number | 'always';
  readonly paths?: readonly string[];
  readonly afterProcessing?: boolean;
}

interface ActiveRule {
  readonly rule: FailRule;
  remaining: number;
}

const MODES: ReadonlySet<string> = new Set(['timeout', '503', '429', 'lack-of-resources']);

/** The failures queued for the node's HTTP API, consumed request by request in order. */
export class Faults {
  #rules: ActiveRule[] = [];

  /** Queues a rule; throws on an unknown mode or a bad count. */
  add(rule: FailRule): void {
    if (!MODES.has(rule.mode)) throw new Error(`unknown fail mode: ${String(rule.mode)}`);
    const count = rule.count ?? 1;
    if (count !== 'always' && (!Number.isSafeInteger(count) || count < 1)) {
      throw new Error(`fail count must be a positive integer or 'always'`);
    }
    if (
      rule.paths !== undefined &&
      !(Array.isArray(rule.paths) && rule.paths.every((p) => typeof p === 'string'))
    ) {
      throw new Error('fail paths must be a list of strings');
    }
    this.#rules.push({ rule, remaining: count === 'always' ? Number.POSITIVE_INFINITY : count });
  }

  /** Removes every queued rule. */
  clear(): void {
    this.#rules = [];
  }

  /** The rule that applies to a request for `path`, consuming one of its uses. */
  take(path: string): FailRule | undefined {
    const active = this.#rules.find((candidate) => matches(candidate.rule, path));
    if (active === undefined) return undefined;
    active.remaining -= 1;
    if (active.remaining <= 0) this.#rules = this.#rules.filter((candidate) => candidate !== active);
    return active.rule;
  }
}

function matches(rule: FailRule, path: string): boolean {
  if (rule.paths === undefined || rule.paths.length === 0) return true;
  return rule.paths.some((pattern) => {
    if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
    if (pattern.startsWith('/')) return path === pattern;
    return path.split('/').pop() === pattern.toLowerCase();
  });
}
