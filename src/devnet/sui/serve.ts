/**
 * Runs a fake Sui node as its own process, for the sandbox or a test in another process:
 *
 *   npx tsx src/devnet/sui/serve.ts [--port 9123] [--interval-ms 250 | --manual] [--seed kassa]
 *
 * Prints one JSON line `{"url", "chainId", "usdcType", "suiType", "faucetAddress"}` once listening,
 * then serves until SIGINT or SIGTERM. Drive it through the `/_fake/*` endpoints.
 */
import { parseArgs } from 'node:util';
import { startFakeSuiNode } from './index.ts';

/** Parses the command line, starts the node and closes it on SIGINT/SIGTERM. Exits 2 on bad arguments. */
export async function main(argv: string[]): Promise<void> {
  let values: { port?: string; 'interval-ms'?: string; manual?: boolean; seed?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'interval-ms': { type: 'string' },
        manual: { type: 'boolean' },
        seed: { type: 'string' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
  const port = Number(values.port ?? 0);
  const interval = Number(values['interval-ms'] ?? 250);
  if (!Number.isInteger(port) || port < 0 || !Number.isInteger(interval) || interval <= 0) {
    process.stderr.write('--port and --interval-ms must be non-negative integers\n');
    process.exit(2);
  }
  const node = await startFakeSuiNode({
    port,
    checkpointIntervalMs: interval,
    manualCheckpoints: values.manual === true,
    seed: values.seed,
  });
  const { url, chainId, usdcType, suiType, faucetAddress } = node;
  process.stdout.write(`${JSON.stringify({ url, chainId, usdcType, suiType, faucetAddress })}\n`);
  const stop = () => {
    void node.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv.slice(2));
}
