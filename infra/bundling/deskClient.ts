import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import type { DeskEntry } from '../../functions/web/desk/deskAssets';
import { PROJECT_ROOT } from './handlerEntry';

/** The desk client's script entries, by served entry name (source paths from the project root). */
export const DESK_CLIENT_SCRIPTS: Readonly<Partial<Record<DeskEntry, string>>> = {
  'chart.js': 'functions/web/desk/client/chart.ts',
  'passkeys.js': 'functions/web/desk/client/passkeys.ts',
};

/** The chart's stylesheet: uPlot's own, then the desk's few rules for it. */
export const DESK_CHART_STYLES = ['node_modules/uplot/dist/uPlot.min.css', 'functions/web/desk/client/chart.css'] as const;

/** Where the client lands in a bundle (`DESK_ASSETS_DIR` of the function is `/var/task/` + this). */
export const DESK_ASSETS_BUNDLE_DIR = 'desk-assets';

/** Largest a page's JavaScript may be, gzipped (bytes): the desk's front-end budget. */
export const DESK_SCRIPT_BUDGET_GZIP = 60 * 1024;

/**
 * Builds the desk's client (esbuild, as every bundle here): each script bundled with what it
 * imports (uPlot, `@simplewebauthn/browser`) into one minified IIFE for current browsers, and the
 * chart's stylesheet. Returns the files' contents by entry; `deskAssetsOf` names them by hash.
 */
export function buildDeskClient(root: string = PROJECT_ROOT): Record<DeskEntry, string> {
  const scripts = Object.entries(DESK_CLIENT_SCRIPTS).map(([entry, source]) => {
    const out = buildSync({
      entryPoints: [join(root, source)],
      bundle: true,
      write: false,
      format: 'iife',
      minify: true,
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      platform: 'browser',
      absWorkingDir: root,
      logLevel: 'silent',
      legalComments: 'none',
    });
    return [entry, out.outputFiles[0]?.text ?? ''] as const;
  });
  const css = DESK_CHART_STYLES.map((file) => readFileSync(join(root, file), 'utf8')).join('\n');
  return { ...(Object.fromEntries(scripts) as Record<'chart.js' | 'passkeys.js', string>), 'chart.css': css };
}

/** Writes the built client into `dir` (a bundle's `desk-assets/`), one file per entry, for `readDeskAssets`. */
export function writeDeskClient(dir: string, built: Readonly<Record<DeskEntry, string>>): void {
  mkdirSync(dir, { recursive: true });
  for (const [entry, body] of Object.entries(built)) writeFileSync(join(dir, entry), body);
}
