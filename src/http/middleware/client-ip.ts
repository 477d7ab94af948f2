import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { TrustProxy } from '../../config/schema.ts';

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) → `1.2.3.4`; other text unchanged. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

/** The socket's peer address, or null when the request did not come over a socket (in-process tests). */
function peerAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/**
 * Decides which hops of a request's path are trusted proxies: a hop count (the nearest N), or a list
 * of addresses and CIDR ranges. Built once per app from `trustProxy`.
 */
export class ProxyTrust {
  private readonly hops: number;
  private readonly ranges: BlockList | null;

  constructor(setting: TrustProxy) {
    if (Array.isArray(setting)) {
      this.hops = 0;
      this.ranges = new BlockList();
      for (const entry of setting) {
        const [address = '', prefix] = entry.split('/');
        const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
        const bits = prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix);
        this.ranges.addSubnet(address, bits, type);
      }
    } else {
      this.hops = setting === true ? 1 : setting === false ? 0 : setting;
      this.ranges = null;
    }
  }

  /** Whether X-Forwarded-For is read at all. */
  get enabled(): boolean {
    return this.hops > 0 || this.ranges !== null;
  }

  /**
   * The client address from the peer and the X-Forwarded-For chain: walking from the right (the
   * peer, then the entries nearest to it), the first address that is not a trusted proxy. The
   * leftmost entries are whatever the client wrote, so they count only when every hop after them is
   * trusted. Null when nothing usable is known.
   */
  clientOf(peerAddress: string | null, forwardedFor: string | undefined): string | null {
    const peer = peerAddress === null ? null : unmapped(peerAddress);
    if (!this.enabled || peer === null) return peer;
    const chain = (forwardedFor ?? '')
      .split(',')
      .map((s) => unmapped(s.trim()))
      .filter((s) => s !== '');
    const path = [...chain, peer];
    if (this.ranges) {
      for (let i = path.length - 1; i >= 0; i--) {
        const address = path[i] as string;
        const family = isIP(address);
        if (family === 0) return i === path.length - 1 ? address : (path[i + 1] as string);
        if (!this.ranges.check(address, family === 6 ? 'ipv6' : 'ipv4')) return address;
      }
      return path[0] as string;
    }
    const index = Math.max(0, path.length - 1 - this.hops);
    const address = path[index] as string;
    // A malformed entry in the trusted part of the chain: fall back to the nearest proxy's view.
    return isIP(address) === 0 ? (path[index + 1] ?? peer) : address;
  }
}

/**
 * The client address of a request as per-client limits should see it: the socket's peer, or behind
 * trusted proxies the first untrusted hop from the right (`ProxyTrust`). `unknown` when there is no
 * socket (requests made in process).
 */
export function clientIp(c: Context, trust: ProxyTrust): string {
  return trust.clientOf(peerAddress(c), c.req.header('x-forwarded-for')) ?? 'unknown';
}

/**
 * The key per-client limits count under: the address itself for IPv4, its /64 network for IPv6 (one
 * subscriber usually holds a whole /64, and could otherwise rotate addresses to dodge a limit).
 */
export function clientKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
