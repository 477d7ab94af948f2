import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A pass-through proxy in front of the fake TRON node that a test can close like a gate: requests
 * to matching paths are held — either never forwarded (`request`) or forwarded with the answer
 * withheld (`response`, the "did my broadcast go out?" case) — after `after` more of them have
 * passed. `open()` lets held and future requests through. Used to freeze a worker process at an
 * exact point before SIGKILLing it.
 */
export interface Gate {
  url: string;
  /** Requests to matching paths that are being held right now. */
  readonly held: number;
  /** Holds requests whose path ends with `suffix`, after letting `after` of them through. */
  close(suffix: string, options?: { after?: number; hold?: 'request' | 'response' }): void;
  open(): void;
  /** Answers 404 to paths ending with `suffix`, as a node without that API does (older java-tron). */
  missing(suffix: string): void;
  stop(): Promise<void>;
}

export async function startGate(target: string): Promise<Gate> {
  let rule: { suffix: string; after: number; hold: 'request' | 'response' } | null = null;
  let waiting: (() => void)[] = [];
  const state = { held: 0 };
  const absent = new Set<string>();

  const forward = async (path: string, body: Buffer) => {
    const upstream = await fetch(`${target}${path}`, { method: 'POST', body: body.toString('utf8') });
    return { status: upstream.status, text: await upstream.text() };
  };
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? '/';
    if ([...absent].some((suffix) => path.endsWith(suffix))) {
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end(`<h2>HTTP ERROR 404 Not Found</h2><p>${path}</p>`);
      return;
    }
    let hold: 'request' | 'response' | null = null;
    if (rule && path.endsWith(rule.suffix)) {
      if (rule.after > 0) rule.after--;
      else hold = rule.hold;
    }
    try {
      let answer: { status: number; text: string };
      if (hold === 'request') {
        await held();
        answer = await forward(path, body);
      } else if (hold === 'response') {
        answer = await forward(path, body);
        await held();
      } else {
        answer = await forward(path, body);
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text);
    } catch {
      res.destroy();
    }
  });
  const held = () =>
    new Promise<void>((resolve) => {
      state.held++;
      waiting.push(() => {
        state.held--;
        resolve();
      });
    });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get held() {
      return state.held;
    },
    close(suffix, options = {}) {
      rule = { suffix, after: options.after ?? 0, hold: options.hold ?? 'request' };
    },
    missing(suffix) {
      absent.add(suffix);
    },
    open() {
      rule = null;
      const release = waiting;
      waiting = [];
      for (const r of release) r();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        rule = null;
        waiting = [];
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
