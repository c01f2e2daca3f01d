import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { chromium } from 'playwright-core';

/** The Debian Chromium; `.ci/run` and developers install it with `apt-get install chromium`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ScreenshotOptions {
  /** Viewport width in CSS pixels (default 720, a typical mail reading pane). */
  width?: number;
  /** Device scale factor (default 1). */
  scale?: number;
}

/**
 * Renders an HTML document in headless Chromium with the network blocked (only `data:` URLs
 * load, as in a mail client with remote images off) and writes a full-page PNG to `outPath`.
 * Returns the PNG bytes.
 */
export async function screenshotHtml(html: string, outPath: string, options: ScreenshotOptions = {}): Promise<Buffer> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 720, height: 600 },
      deviceScaleFactor: options.scale ?? 1,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    await page.setContent(html, { waitUntil: 'load' });
    const png = await page.screenshot({ fullPage: true, type: 'png' });
    await mkdir(dirname(outPath), { recursive: true });
    await writeFile(outPath, png);
    return png;
  } finally {
    await browser.close();
  }
}

/** Replaces `cid:<cid>` references with `data:` URIs, so a browser can show the inline images. */
export function inlineCidImages(html: string, images: Readonly<Record<string, Uint8Array>>): string {
  return html.replace(/(["'])cid:([^"']+)\1/g, (whole, quote: string, cid: string) => {
    const bytes = images[cid];
    return bytes ? `${quote}data:image/png;base64,${Buffer.from(bytes).toString('base64')}${quote}` : whole;
  });
}
