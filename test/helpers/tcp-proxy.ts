import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay on 127.0.0.1 in front of one port, that a test can cut, stall and restore. */
export interface TcpProxy {
  port: number;
  /** Drops every open connection and stops listening: new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /**
   * A network partition: connections stay open but nothing passes either way, and new connections
   * are accepted and then never answered; nobody is told (no reset, no close).
   */
  stall(): void;
  /** The partition heals: what was held passes on, byte for byte, and new connections reach the target. */
  resume(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

/** Relays 127.0.0.1:<port> to 127.0.0.1:`target`, byte for byte. */
export async function startTcpProxy(target: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let server: Server | null = null;
  let port = 0;
  let stalled = false;
  const drop = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
  };
  const relay = (pair: Pair) => {
    if (!pair.upstream) {
      const upstream = connect(target, '127.0.0.1');
      pair.upstream = upstream;
      upstream.on('error', () => drop(pair));
      upstream.on('close', () => drop(pair));
    }
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe();
    pair.upstream?.unpipe();
    pair.client.pause();
    pair.upstream?.pause();
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const pair: Pair = { client, upstream: null };
        pairs.add(pair);
        client.on('error', () => drop(pair));
        client.on('close', () => drop(pair));
        if (stalled) client.pause();
        else relay(pair);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        const address = s.address();
        port = typeof address === 'object' && address ? address.port : port;
        server = s;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const pair of [...pairs]) drop(pair);
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return {
    port,
    cut,
    restore: listen,
    stall() {
      stalled = true;
      for (const pair of pairs) hold(pair);
    },
    resume() {
      stalled = false;
      for (const pair of pairs) relay(pair);
    },
    close: () => {
      stalled = false;
      return cut();
    },
  };
}
