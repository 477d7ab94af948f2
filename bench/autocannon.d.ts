// Minimal typings for the parts of autocannon 9 the benchmarks use (it ships none).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    non2xx: number;
    '4xx': number;
    errors: number;
    timeouts: number;
    /** Responses by status code. */
    statusCodeStats?: Record<string, { count: number }>;
  }
  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: RequestSpec, context: Record<string, unknown>) => RequestSpec;
    /** Called with each answer's status and body text. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    /** Requests per second over all connections (a fixed rate instead of as fast as possible). */
    overallRate?: number;
    requests?: RequestSpec[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
