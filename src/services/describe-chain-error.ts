import { activeChain } from '../config/active-chain.ts';
import type { Config } from '../config/schema.ts';
import type { Chain } from '../domain/chains.ts';
import { redactUrl } from '../lib/logger.ts';

/** Every message, code and HTTP status along an error's `cause` chain, as one searchable text. */
function causeText(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 8; depth++) {
    const x = e as { message?: unknown; code?: unknown; name?: unknown; status?: unknown; cause?: unknown };
    parts.push(String(x.name ?? ''), String(x.code ?? ''), String(x.message ?? ''));
    if (typeof x.status === 'number') parts.push(`HTTP ${x.status}`);
    e = x.cause;
  }
  return parts.join(' ');
}

/** What went wrong with the node, in a few words, or null when the error is not about the node. */
function nodeProblem(text: string): { reachable: boolean; why: string } | null {
  const unreachable = (why: string) => ({ reachable: false, why });
  if (/ECONNREFUSED/.test(text)) return unreachable('connection refused');
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return unreachable('host name not found');
  if (/ETIMEDOUT|TimeoutError|timed out|AbortError/i.test(text)) return unreachable('no answer in time');
  if (/ECONNRESET|EPIPE|socket hang up|UND_ERR_SOCKET/.test(text)) return unreachable('connection dropped');
  if (/bad port/.test(text)) return unreachable('fetch refuses to use that port');
  if (/URL that includes credentials/.test(text))
    return unreachable(
      'the URL carries user:password, which fetch refuses; put the key in the path or query',
    );
  if (/certificate|CERT_|SSL routines|TLS/i.test(text)) return unreachable('TLS certificate problem');
  if (/\bHTTP 40[13]\b/.test(text))
    return { reachable: true, why: 'refused the request (HTTP 401/403: check the API key in the URL)' };
  if (/\bHTTP 429\b|rate limit|too many requests/i.test(text))
    return { reachable: true, why: 'is rate limiting Kassa (HTTP 429)' };
  const server = /\bHTTP (5\d\d)\b/.exec(text);
  if (server) return { reachable: true, why: `answered HTTP ${server[1]}` };
  if (/fetch failed/.test(text)) return unreachable('network error');
  return null;
}

/** Whether an error says the chain's node could not be reached at all (asking again now is futile). */
export function isNodeUnreachable(error: unknown): boolean {
  return nodeProblem(causeText(error))?.reachable === false;
}

/**
 * One line a person can act on for a chain operation that failed, e.g.
 * `ETH: node unreachable at https://rpc.example/*** (connection refused)`. The chain's RPC URLs are
 * shown redacted (never an API key); other errors keep only their first line.
 */
export function describeChainError(config: Config, chain: Chain, error: unknown): string {
  const urls = activeChain(config, chain).rpc.map(redactUrl);
  const where = urls.length === 0 ? '' : ` at ${urls.join(', ')}`;
  const text = causeText(error);
  const problem = nodeProblem(text);
  if (problem && !problem.reachable) return `${chain}: node unreachable${where} (${problem.why})`;
  if (problem) return `${chain}: node${where} ${problem.why}`;
  const first = String(
    (error as { shortMessage?: unknown })?.shortMessage ?? (error as Error)?.message ?? error,
  )
    .split('\n')[0]
    ?.trim()
    // A message may quote a URL with its API key: redact every URL in it.
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url));
  return `${chain}: ${first || 'unknown error'}`;
}
