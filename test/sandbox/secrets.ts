import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_CUSTOMER } from '../../src/devnet/sandbox.ts';
import { CHAINS } from '../../src/domain/chains.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';

/**
 * Every secret a sandbox in `dataDir` holds, in each form it could be printed in: the mnemonic
 * (whole, and every run of four of its words), the master key, the demo merchant's token and webhook
 * secret, the hot wallets' private keys, the first deposit addresses' keys of each family, and the
 * devnet customer's keys (hex, with and without 0x, and base64).
 */
export function sandboxSecrets(dataDir: string): [string, string][] {
  const { mnemonic, masterKey } = JSON.parse(readFileSync(join(dataDir, 'sandbox-secrets.json'), 'utf8')) as {
    mnemonic: string;
    masterKey: string;
  };
  const { merchant } = JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8')) as {
    merchant: { token: string; webhookSecret: string };
  };
  const out: [string, string][] = [['mnemonic', mnemonic]];
  const words = mnemonic.split(' ');
  for (let i = 0; i + 4 <= words.length; i++)
    out.push([`mnemonic words ${i}-${i + 3}`, words.slice(i, i + 4).join(' ')]);
  const keyForms = (name: string, hex: string) => {
    const bare = hex.replace(/^0x/, '');
    out.push([name, bare], [`${name} (base64)`, Buffer.from(bare, 'hex').toString('base64')]);
  };
  keyForms('master key', masterKey);
  out.push(['merchant token', merchant.token], ['webhook secret', merchant.webhookSecret]);
  const keys = createKeyRing(mnemonic);
  for (const chain of CHAINS)
    keyForms(`${chain} hot wallet key`, keys.hotWallet(chain).privateKey.toString('hex'));
  for (const family of ['evm', 'tron', 'sui'] as const)
    for (let i = 0; i < 30; i++)
      keyForms(`${family} deposit key ${i}`, keys.depositKey(family, i).toString('hex'));
  for (const [family, key] of Object.entries(SANDBOX_CUSTOMER)) keyForms(`${family} customer key`, key);
  return out;
}
