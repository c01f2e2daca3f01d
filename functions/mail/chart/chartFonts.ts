import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the chart's fonts come from. */
export interface ChartFontOptions {
  /** Font files to use instead of searching; e.g. a TTF shipped next to the Lambda handler. */
  fontFiles?: string[];
}

/** The resvg `font` option. */
export interface ResvgFontOptions {
  loadSystemFonts: boolean;
  fontFiles?: string[];
  defaultFontFamily: string;
}

const PREFERRED = /^(DejaVuSans|DejaVuSans-Bold|LiberationSans-Regular|LiberationSans-Bold)\.ttf$/;

// Searched in order: a `fonts/` folder next to this module (the Lambda bundle ships one, as Lambda has no
// system fonts), the npm package it is copied from (running from source), then the system's.
const SEARCH_DIRS = [
  fileURLToPath(new URL('./fonts/', import.meta.url)),
  fileURLToPath(new URL('../../../node_modules/dejavu-fonts-ttf/ttf/', import.meta.url)),
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  '/opt/fonts',
];

let found: string[] | undefined;

function findFonts(): string[] {
  const files: string[] = [];
  for (const dir of SEARCH_DIRS) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && PREFERRED.test(entry.name)) files.push(join(entry.parentPath, entry.name));
    }
    if (files.length) break;
  }
  return files;
}

/**
 * Font settings for resvg. Loading two known font files is much faster than scanning every
 * system font, so DejaVu Sans or Liberation Sans are looked up once and used when present;
 * otherwise resvg falls back to whatever system fonts exist. Without any font, the chart still
 * renders its lines and areas but no text; the email's HTML carries every number in text anyway.
 */
export function chartFontOptions(options: ChartFontOptions = {}): ResvgFontOptions {
  const files = options.fontFiles ?? (found ??= findFonts());
  const family = files.some((f) => f.includes('Liberation')) && !files.some((f) => f.includes('DejaVu')) ? 'Liberation Sans' : 'DejaVu Sans';
  return files.length ? { loadSystemFonts: false, fontFiles: files, defaultFontFamily: family } : { loadSystemFonts: true, defaultFontFamily: family };
}
