import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay on 127.0.0.1 in front of one port, that a test can cut and restore. */
export interface TcpProxy {
  port: number;
  /** Drops every open connection and stops listening: new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Relays 127.0.0.1:<port> to 127.0.0.1:`target`, byte for byte. */
export async function startTcpProxy(target: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(target, '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
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
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return { port, cut, restore: listen, close: cut };
}
