import QRCode from 'qrcode-svg';

/** Quiet zone around the code, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;
const CACHE_LIMIT = 1000;

/**
 * Draws `content` as an SVG QR code. qrcode-svg encodes the matrix; the SVG is drawn here so that it
 * suits a strict page: one module is one viewBox unit (short integer path data, a few KB), colours
 * are presentation attributes (a CSP without 'unsafe-inline' blocks `style="…"` and would turn the
 * white background black), and the drawing keeps the matrix's orientation (row = y). It scales with
 * CSS. It is hidden from screen readers: the page labels the element around it.
 */
export function renderQrSvg(content: string): string {
  const model = new QRCode({ content, ecl: 'M', padding: 0, join: true }).qrcode;
  const n = model.moduleCount;
  const size = n + 2 * QUIET;
  let d = '';
  for (let y = 0; y < n; y++) {
    const row = model.modules[y] as boolean[];
    let x = 0;
    while (x < n) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && row[x]) x++;
      d += `M${start + QUIET} ${y + QUIET}h${x - start}v1h-${x - start}z`;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" aria-hidden="true" ` +
    `focusable="false" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
  );
}

/**
 * A QR cache keyed by order: the code is drawn once per order (an order's payload never changes)
 * and redrawn only if the payload does. Oldest entries go first past `limit`.
 */
export class QrCache {
  private readonly entries = new Map<string, { content: string; svg: string }>();
  /** How many codes were actually drawn (tests use it to prove the cache works). */
  drawn = 0;

  constructor(private readonly limit = CACHE_LIMIT) {}

  /** The SVG of `content` for order `key`, from the cache when it holds the same payload. */
  svg(key: string, content: string): string {
    const hit = this.entries.get(key);
    if (hit && hit.content === content) return hit.svg;
    const svg = renderQrSvg(content);
    this.drawn++;
    this.entries.delete(key);
    this.entries.set(key, { content, svg });
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return svg;
  }
}
