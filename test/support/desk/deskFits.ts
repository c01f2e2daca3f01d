import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The widths every desk page is checked at: a laptop and a small phone. */
export const DESK_WIDTHS = [1280, 360] as const;

/**
 * At `width`: nothing but a table's own scrolling region is wider than the screen, and no signed
 * figure (`.up`, `.down`, `.flat`) is split over two lines. Leaves the viewport at `width`.
 */
export async function fitsWidth(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  // The charts redraw at the new width on the next animation frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
  const split = await page.locator('.up, .down, .flat').evaluateAll((spans) => spans.filter((s) => s.getClientRects().length > 1).map((s) => s.textContent));
  expect(split, `${name} at ${width} px`).toEqual([]);
}

/** The page fits each of `DESK_WIDTHS` (`fitsWidth`); the viewport is 1280 px wide again after. */
export async function fitsEveryWidth(page: Page, name: string): Promise<void> {
  for (const width of DESK_WIDTHS) await fitsWidth(page, name, width);
  await page.setViewportSize({ width: 1280, height: 900 });
}
