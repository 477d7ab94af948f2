import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { describe, expect, it } from 'vitest';

describe('serve.ts', () => {
  it('runs the node in its own process, driven over HTTP, and stops on SIGTERM', async () => {
    const script = fileURLToPath(new URL('./serve.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--manual', '--seed', 'serve-test'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      const info = JSON.parse(line) as { url: string; chainId: string; usdcType: string };
      const owner = new Ed25519Keypair().toSuiAddress();
      const mint = await fetch(`${info.url}/_fake/mint`, {
        method: 'POST',
        body: JSON.stringify({ coinType: info.usdcType, owner, amount: '1234' }),
      });
      expect(mint.status).toBe(200);
      const client = new SuiGrpcClient({ network: 'localnet', baseUrl: info.url });
      expect((await client.ledgerService.getServiceInfo({}).response).chainId).toBe(info.chainId);
      const balance = await client.core.getBalance({ address: owner, coinType: info.usdcType });
      expect(balance.balance.balance).toBe('1234');
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
