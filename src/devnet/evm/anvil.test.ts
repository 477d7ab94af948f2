import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, AnvilStartError, resolveAnvilBinary, startAnvil } from './anvil.ts';
import { isProcessRunning } from './is-process-running.ts';

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

async function waitUntilGone(pid: number, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isProcessRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isProcessRunning(pid);
}

const leftovers: AnvilInstance[] = [];
afterAll(async () => {
  await Promise.all(leftovers.map((anvil) => anvil.stop()));
});

describe('startAnvil', () => {
  it('runs the platform binary itself, not the node wrapper', () => {
    expect(resolveAnvilBinary()).toMatch(/@foundry-rs\/anvil-[a-z0-9]+-[a-z0-9]+\/bin\/anvil(\.exe)?$/);
  });

  it('starts on a free 127.0.0.1 port with the given chain id, and leaves no process after stop', async () => {
    const anvil = await startAnvil({ chainId: 43114 });
    leftovers.push(anvil);
    const pid = anvil.process.pid!;
    expect(anvil.url).toBe(`http://127.0.0.1:${anvil.port}`);
    expect(await rpc(anvil.url, 'eth_chainId')).toBe('0xa86a');
    expect(isProcessRunning(pid)).toBe(true);

    await anvil.stop();
    expect(isProcessRunning(pid)).toBe(false);
    await expect(rpc(anvil.url, 'eth_chainId')).rejects.toThrow();
    await anvil.stop(); // idempotent
  });

  it('gives concurrent instances distinct ports', async () => {
    const anvils = await Promise.all([1, 56, 137].map((chainId) => startAnvil({ chainId })));
    leftovers.push(...anvils);
    expect(new Set(anvils.map((anvil) => anvil.port)).size).toBe(3);
    expect(await Promise.all(anvils.map((anvil) => rpc(anvil.url, 'eth_chainId')))).toEqual([
      '0x1',
      '0x38',
      '0x89',
    ]);
    await Promise.all(anvils.map((anvil) => anvil.stop()));
  });

  it('refuses a fixed port that is taken, even by a node with the same chain id', async () => {
    const first = await startAnvil({ chainId: 1 });
    leftovers.push(first);
    // The other node answers eth_chainId with the right id: only anvil's own output tells them apart.
    const second = startAnvil({ chainId: 1, port: first.port, readyTimeoutMs: 5_000 });
    await expect(second).rejects.toThrow(AnvilStartError);
    await expect(second).rejects.toThrow(/address already in use/i);
    expect(await rpc(first.url, 'eth_chainId')).toBe('0x1'); // the first is untouched
    await first.stop();
  });

  it('passes slotsInAnEpoch and noMining through', async () => {
    const anvil = await startAnvil({ chainId: 1, slotsInAnEpoch: 2, noMining: true });
    leftovers.push(anvil);
    expect(await rpc(anvil.url, 'anvil_getAutomine')).toBe(false);
    await rpc(anvil.url, 'anvil_mine', ['0xa']);
    const finalized = (await rpc(anvil.url, 'eth_getBlockByNumber', ['finalized', false])) as {
      number: string;
    };
    expect(BigInt(finalized.number)).toBe(10n - 2n * 2n);
    await anvil.stop();
  });

  it('keeps the chain across a restart with stateFile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-anvil-'));
    try {
      const stateFile = join(dir, 'state.json');
      const first = await startAnvil({ chainId: 137, stateFile });
      leftovers.push(first);
      await rpc(first.url, 'anvil_mine', ['0x7']);
      await first.stop();

      const second = await startAnvil({ chainId: 137, stateFile });
      leftovers.push(second);
      expect(await rpc(second.url, 'eth_blockNumber')).toBe('0x7');
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe.concurrent('when the Node process that started anvil goes away without stop()', () => {
    const script = (ending: string) => `
      import { startAnvil } from ${JSON.stringify(new URL('./anvil.ts', import.meta.url).href)};
      const anvil = await startAnvil({ chainId: 1 });
      console.log(anvil.process.pid);
      ${ending}
    `;
    const nodeArgs = (ending: string) => ['--import', 'tsx', '--input-type=module', '-e', script(ending)];

    it('kills anvil when the process exits', async () => {
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(process.execPath, nodeArgs('process.exit(0);'), (error, out) =>
          error ? reject(error) : resolve(out),
        );
      });
      const pid = Number(stdout.trim());
      expect(pid).toBeGreaterThan(0);
      expect(await waitUntilGone(pid)).toBe(true);
    });

    it('stops anvil, its chain saved, when the process is SIGKILLed and none of its hooks can run (Linux)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'anvil-sigkill-'));
      const stateFile = join(dir, 'state.json');
      try {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            '--input-type=module',
            '-e',
            `import { startAnvil } from ${JSON.stringify(new URL('./anvil.ts', import.meta.url).href)};
            const anvil = await startAnvil({ chainId: 1, stateFile: ${JSON.stringify(stateFile)} });
            console.log(JSON.stringify({ pid: anvil.process.pid, url: anvil.url }));
            setInterval(() => {}, 1000);`,
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        const { pid, url } = await new Promise<{ pid: number; url: string }>((resolve) => {
          child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
        });
        await rpc(url, 'anvil_mine', ['0x5']);
        child.kill('SIGKILL');
        const gone = await waitUntilGone(pid, 10_000);
        if (!gone) process.kill(pid, 'SIGKILL'); // left behind: do not leak it past the test
        expect(gone).toBe(true);
        const again = await startAnvil({ chainId: 1, stateFile });
        leftovers.push(again);
        expect(await rpc(again.url, 'eth_blockNumber')).toBe('0x5');
        await again.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('kills anvil when the process is terminated by SIGTERM it does not handle', async () => {
      const child = spawn(process.execPath, nodeArgs('setInterval(() => {}, 1000);'), {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const pid = await new Promise<number>((resolve) => {
        child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      });
      expect(isProcessRunning(pid)).toBe(true);
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_, signal) => resolve(signal)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe('SIGTERM'); // default behaviour kept: the process still dies of the signal
      expect(await waitUntilGone(pid)).toBe(true);
    });
  });
});
