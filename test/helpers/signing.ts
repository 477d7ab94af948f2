import { createHmac, randomUUID } from 'node:crypto';

/**
 * How a merchant's server signs requests, written independently of Kassa's code (node:crypto only),
 * the way the README tells merchants to do it.
 */
export function signData(token: string, dataText: string): string {
  return createHmac('sha256', token).update(dataText, 'utf8').digest('hex');
}

/** A signed POST envelope as JSON text; `dataText` lets a test sign exact bytes it chooses. */
export function envelope(
  token: string,
  data: unknown,
  options: { timestamp?: number; nonce?: string; dataText?: string; sign?: string } = {},
): string {
  const dataText = options.dataText ?? JSON.stringify(data);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = options.nonce ?? randomUUID();
  const sign = options.sign ?? signData(token, dataText);
  return `{"sign":"${sign}","timestamp":${timestamp},"nonce":${JSON.stringify(nonce)},"data":${dataText}}`;
}
