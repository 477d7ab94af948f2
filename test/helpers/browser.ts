import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import jsqr from 'jsqr';
import { type Browser, chromium, type Page } from 'playwright-core';
import { PNG } from 'pngjs';

/** Debian's Chromium (`apt-get install -y chromium`; `.ci/run` installs it). */
export const CHROMIUM_PATH = process.env.KASSA_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a quiet, offline, sandbox-free headless Chromium on a CI box. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts headless Chromium. playwright gives every launch a fresh temporary user-data-dir and
 * removes it on close. One browser per test file is enough: open contexts and pages from it.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** An app served on a real 127.0.0.1 port, for a browser (or any HTTP client) to reach. */
export interface Served {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Serves `app.fetch` with @hono/node-server on a free 127.0.0.1 port. */
export function serveApp(app: {
  fetch: (request: Request) => Response | Promise<Response>;
}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
    server.once('error', reject);
  });
}

/**
 * Makes a manual test clock follow real time (the rate limiter, expiry and the page's countdown all
 * read it), while tests can still jump it with `advance`. Returns the function that stops it.
 */
export function followRealTime(clock: { advance(ms: number): void }, everyMs = 25): () => void {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    clock.advance(Math.round(now - last));
    last = now;
  }, everyMs);
  return () => clearInterval(timer);
}

/** Decodes the QR code in a PNG (a screenshot), or null when there is none to read. */
export function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const data = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  return jsqr.default(data, image.width, image.height)?.data ?? null;
}

/** Screenshots the element at `selector` and decodes the QR code in it. */
export async function readQr(page: Page, selector: string): Promise<string | null> {
  return decodeQr(await page.locator(selector).screenshot());
}

/**
 * Collects what must never happen on a checkout page: script errors, Content-Security-Policy
 * violations and failed console errors. Assert the returned list is empty.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (401|404|429)/.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/** Waits until the checkout page shows `view` (waiting, seen, confirming, paid, expired, failed). */
export async function waitForView(page: Page, view: string, timeout = 10_000): Promise<void> {
  await page.waitForSelector(`#checkout[data-view="${view}"]`, { state: 'attached', timeout });
}
