import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { UsageError } from './output.ts';

/**
 * `kassa secrets generate --out DIR`: writes a new 24-word mnemonic to DIR/mnemonic and a new master
 * key to DIR/master.key, readable by the owner only, and prints only their paths. Refuses to
 * overwrite existing files (that would orphan the funds of the old mnemonic).
 */
export async function secretsCommand(
  args: string[],
  flags: Record<string, string | boolean | undefined>,
): Promise<void> {
  if (args[0] !== 'generate' || typeof flags.out !== 'string')
    throw new UsageError('secrets generate --out DIR');
  const dir = resolve(flags.out);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mnemonicFile = join(dir, 'mnemonic');
  const keyFile = join(dir, 'master.key');
  for (const f of [mnemonicFile, keyFile])
    if (existsSync(f)) throw new UsageError(`${f} exists; not overwriting it.`);
  writeFileSync(mnemonicFile, `${generateMnemonic(wordlist, 256)}\n`, { mode: 0o600, flag: 'wx' });
  writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  process.stdout.write(
    `KASSA_MNEMONIC_FILE=${mnemonicFile}\nKASSA_MASTER_KEY_FILE=${keyFile}\n` +
      '# Write the mnemonic down offline as well: it is the only way to the funds.\n',
  );
}
