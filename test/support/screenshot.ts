import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The Debian Chromium; `.ci/run` and developers install it with `apt-get install chromium`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Chromium as the browser tests drive it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

export interface ScreenshotOptions {
  /** Viewport width in CSS pixels (default 720, a typical mail reading pane). */
  width?: number;
  /** Device scale factor (default 1). */
  scale?: number;
}

/** A screenshot and what the page showed. */
export interface Screenshot {
  png: Buffer;
  /** Images that failed to load (a `cid:` left unreplaced, a blocked remote URL). */
  brokenImages: number;
}

/** A headless Chromium that turns HTML documents into full-page PNGs. */
export interface Screenshotter {
  shoot(html: string, outPath: string, options?: ScreenshotOptions): Promise<Screenshot>;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium. Pages render with JavaScript off and the network blocked (only
 * `data:` URLs load, as in a mail client with remote images off). Each document replaces the last
 * in one page per scale factor: a page of its own per shot costs a renderer start (1-2 s).
 */
export async function openScreenshotter(): Promise<Screenshotter> {
  const browser = await launchChromium();
  const pages = new Map<number, Promise<Page>>();
  let turn: Promise<unknown> = Promise.resolve();
  const pageAt = (scale: number) => {
    let page = pages.get(scale);
    if (!page) {
      page = (async () => {
        const context = await browser.newContext({ viewport: { width: 720, height: 600 }, deviceScaleFactor: scale, javaScriptEnabled: false });
        const opened = await context.newPage();
        await opened.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
        return opened;
      })();
      pages.set(scale, page);
    }
    return page;
  };
  return {
    shoot(html, outPath, options = {}) {
      // One shot at a time: shots share a page, so one started meanwhile would replace its document.
      const shot = turn.then(async () => {
        const page = await pageAt(options.scale ?? 1);
        await page.setViewportSize({ width: options.width ?? 720, height: 600 });
        await page.setContent(html, { waitUntil: 'load' });
        const brokenImages = await page.locator('img').evaluateAll((imgs) => imgs.filter((i) => !(i as HTMLImageElement).naturalWidth).length);
        const png = await page.screenshot({ fullPage: true, type: 'png' });
        await mkdir(dirname(outPath), { recursive: true });
        await writeFile(outPath, png);
        return { png, brokenImages };
      });
      turn = shot.catch(() => undefined);
      return shot;
    },
    close: () => browser.close(),
  };
}

/** Screenshots one HTML document into `outPath` (see {@link openScreenshotter}). */
export async function screenshotHtml(html: string, outPath: string, options: ScreenshotOptions = {}): Promise<Screenshot> {
  const shooter = await openScreenshotter();
  try {
    return await shooter.shoot(html, outPath, options);
  } finally {
    await shooter.close();
  }
}

/** Screenshots a received email's HTML part with its inline (`cid:`) attachments shown, as a mail client would. */
export function screenshotMail(
  mail: { html: string | false; attachments: readonly { cid?: string | undefined; content: Uint8Array }[] },
  outPath: string,
): Promise<Screenshot> {
  const images = Object.fromEntries(mail.attachments.flatMap((a) => (a.cid ? [[a.cid, a.content]] : [])));
  return screenshotHtml(inlineCidImages(mail.html || '', images), outPath);
}

/** Replaces `cid:<cid>` references with `data:` URIs, so a browser can show the inline images. */
export function inlineCidImages(html: string, images: Readonly<Record<string, Uint8Array>>): string {
  return html.replace(/(["'])cid:([^"']+)\1/g, (whole, quote: string, cid: string) => {
    const bytes = images[cid];
    return bytes ? `${quote}data:image/png;base64,${Buffer.from(bytes).toString('base64')}${quote}` : whole;
  });
}
