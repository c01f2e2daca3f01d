import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_SETTINGS, bundleCopies, esbuildOptions } from '../../../infra/bundling/bundleSettings';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';

const work = mkdtempSync(join(tmpdir(), 'sentinel-fonts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('chart fonts in a Lambda bundle', () => {
  it('are found in fonts/ next to the bundle, where the mailer bundles ship them', async () => {
    const entry = join(work, 'entry.ts');
    const chartFonts = join(PROJECT_ROOT, 'functions', 'mail', 'chart', 'chartFonts.ts');
    writeFileSync(entry, `import { chartFontOptions } from ${JSON.stringify(chartFonts)};\nconsole.log(JSON.stringify(chartFontOptions()));\n`);
    const out = join(work, 'bundle');
    await build(esbuildOptions(entry, out, []));
    for (const { from, to } of bundleCopies('notify', process.arch === 'arm64' ? 'arm64' : 'x64').filter((c) => c.to.startsWith('fonts/'))) {
      mkdirSync(dirname(join(out, to)), { recursive: true });
      cpSync(join(PROJECT_ROOT, from), join(out, to));
    }
    const run = spawnSync(process.execPath, [join(out, BUNDLE_SETTINGS.outFile)], { encoding: 'utf8', cwd: work });
    expect(run.stderr).toBe('');
    const options = JSON.parse(run.stdout) as { loadSystemFonts: boolean; fontFiles?: string[]; defaultFontFamily: string };
    expect(options.loadSystemFonts).toBe(false);
    expect(options.defaultFontFamily).toBe('DejaVu Sans');
    expect([...(options.fontFiles ?? [])].sort()).toEqual([join(out, 'fonts', 'DejaVuSans-Bold.ttf'), join(out, 'fonts', 'DejaVuSans.ttf')]);
  });
});
