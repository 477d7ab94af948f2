import pg from 'pg';

/** What a query is called with: node-postgres takes its callback as the second or third argument. */
type QueryArgs = unknown[];

/**
 * A node-postgres client whose queries may wait at most `timeoutMs` for their answer. A query still
 * unanswered then (the network is partitioned, the server hangs) closes the connection: every query
 * on it fails as "Connection terminated", and the pool never hands it out again. Closing is the
 * point: the connection may be inside a transaction whose end never came, and node-postgres's own
 * query_timeout would give it back to the pool in that state, where the next caller's statements
 * would run (and could be committed) inside it. The server rolls such a transaction back when it
 * sees the connection close, or after idle_in_transaction_session_timeout when it never does.
 */
export function timedClient(timeoutMs: number): typeof pg.Client {
  return class TimedClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this passes them through
    override query(...args: QueryArgs): any {
      let timer: NodeJS.Timeout | undefined = setTimeout(() => {
        timer = undefined;
        const silence = Object.assign(new Error(`the database did not answer within ${timeoutMs} ms`), {
          code: 'ETIMEDOUT',
        });
        (
          this as unknown as { connection: { stream: { destroy(error?: Error): void } } }
        ).connection.stream.destroy(silence);
      }, timeoutMs);
      const done = () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
      };
      const at = args.findIndex((arg, i) => i > 0 && typeof arg === 'function');
      if (at > 0) {
        const callback = args[at] as (...results: unknown[]) => void;
        args[at] = (...results: unknown[]) => {
          done();
          callback(...results);
        };
      }
      let result: unknown;
      try {
        result = (super.query as (...a: QueryArgs) => unknown)(...args);
      } catch (error) {
        done();
        throw error;
      }
      const pending = result as { then?: (ok: () => void, failed: () => void) => unknown } | undefined;
      if (typeof pending?.then === 'function') pending.then(done, done);
      else if (at < 0) done(); // a submittable without a callback: not timed
      return result;
    }
  };
}
