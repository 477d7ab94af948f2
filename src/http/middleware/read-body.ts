import type { Context } from 'hono';
import { AppError } from '../../domain/errors.ts';

/**
 * Reads a request body as text, refusing (413) one larger than `maxBytes`: at once from its
 * Content-Length, or while streaming a chunked body. Cheaper than a body-limit middleware that
 * re-wraps every request's stream.
 */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined) {
    if (Number(declared) > maxBytes) throw new AppError('body_too_large');
    const text = await c.req.text();
    if (Buffer.byteLength(text) > maxBytes) throw new AppError('body_too_large');
    return text;
  }
  const body = c.req.raw.body;
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AppError('body_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
