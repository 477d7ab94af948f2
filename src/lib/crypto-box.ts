import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals secrets at rest with AES-256-GCM under the operator's master key. The sealed text is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; `aad` binds a secret to its row so a sealed value
 * cannot be moved to another merchant.
 */
export interface CryptoBox {
  seal(plain: string, aad: string): string;
  open(sealed: string, aad: string): string;
}

/** Builds a box from a 32-byte key. Throws if the key is not 32 bytes. */
export function createCryptoBox(key: Buffer): CryptoBox {
  if (key.length !== 32) throw new Error('The master key must be 32 bytes.');
  return {
    seal(plain, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.');
    },
    open(sealed, aad) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('Unknown sealed secret format.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
