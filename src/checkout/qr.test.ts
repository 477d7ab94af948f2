import jsqr from 'jsqr';
import { describe, expect, it } from 'vitest';
import { QrCache, renderQrSvg } from './qr.ts';

// jsqr is CommonJS whose typings only declare `default`; at run time both spellings are the function.
const jsQR = jsqr.default;

/** Rasterises the SVG's own path data (our `M x y h n v1 h-n z` runs) at `scale` px a module. */
function rasterise(svg: string, scale = 3) {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const d = /<path fill="#000" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  const px = size * scale;
  const data = new Uint8ClampedArray(px * px * 4).fill(255);
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let yy = Number(y) * scale; yy < (Number(y) + 1) * scale; yy++)
      for (let xx = Number(x) * scale; xx < (Number(x) + Number(w)) * scale; xx++)
        data.fill(0, (yy * px + xx) * 4, (yy * px + xx) * 4 + 3);
  }
  return { data, px, runs: d.match(/M/g)?.length ?? 0, pathLength: d.length };
}

describe('QR drawing', () => {
  it('draws a code that decodes back to its content, in the orientation of the matrix', () => {
    const uri =
      'ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266&uint256=12000000';
    const { data, px, runs } = rasterise(renderQrSvg(uri));
    expect(runs).toBeGreaterThan(100);
    expect(jsQR(data, px, px, { inversionAttempts: 'dontInvert' })?.data).toBe(uri);
  });

  it('uses no style attribute (a nonce CSP blocks them) and hides the drawing from screen readers', () => {
    const svg = renderQrSvg('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(svg).not.toMatch(/style=/);
    expect(svg).toContain('fill="#fff"');
    expect(svg).toContain('aria-hidden="true"');
    expect(svg.length).toBeLessThan(8_000);
  });
});

describe('QR cache', () => {
  it('draws once per order and again only when the payload changes', () => {
    const cache = new QrCache();
    const a = cache.svg('ord_a', 'TAAA');
    expect(cache.svg('ord_a', 'TAAA')).toBe(a);
    expect(cache.drawn).toBe(1);
    cache.svg('ord_b', 'TBBB');
    expect(cache.drawn).toBe(2);
    expect(cache.svg('ord_a', 'TAAA2')).not.toBe(a);
    expect(cache.drawn).toBe(3);
  });

  it('forgets the oldest order past its limit', () => {
    const cache = new QrCache(2);
    cache.svg('1', 'one');
    cache.svg('2', 'two');
    cache.svg('3', 'three');
    cache.svg('2', 'two');
    expect(cache.drawn).toBe(3);
    cache.svg('1', 'one');
    expect(cache.drawn).toBe(4);
  });
});
